import { z } from 'zod';

/** One entry of error.details: which field, which rule, and the spec's message. */
export const errorDetailSchema = z.object({
  path: z.string(),
  code: z.string(),
  message: z.string(),
});

/** The one error envelope of every failed API response (DESIGN.md "API conventions"). */
export const errorEnvelopeSchema = z.object({
  error: z.object({
    statusCode: z.number().int(),
    name: z.string(),
    message: z.string(),
    code: z.string().optional(),
    details: z.array(errorDetailSchema).optional(),
    /** 429 of too many failed attempts: the seconds to wait (also the Retry-After header). */
    retryAfter: z.number().int().optional(),
  }),
});

export type ErrorDetail = z.infer<typeof errorDetailSchema>;
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** A 204 or "ok" answer for calls the spec says return nothing useful. */
export const okSchema = z.object({ ok: z.literal(true) });

/** The body of a 204 answer: none (a route's `response: { 204: noContentSchema }`). */
export const noContentSchema = z.null().describe('No content');
