import { z } from 'zod';
import { limits } from './limits';

/**
 * The search query of SPEC §3, in LoopBack 4's filter shape (DESIGN.md "API conventions").
 * The contract checks the shape; the server checks every named column against the entity's whitelist
 * and answers 400 for anything else.
 *
 * where: { col: value | { eq|neq|gt|gte|lt|lte|like|nlike|ilike: v, inq|nin: v[], between: [a, b] },
 *          and: where[], or: where[] }
 */
export const whereSchema: z.ZodType<Record<string, unknown>> = z.record(z.string(), z.unknown());

export const fieldsSchema = z.union([z.array(z.string()), z.record(z.string(), z.boolean())]);

export const orderSchema = z.union([z.string(), z.array(z.string())]);

export const includeItemSchema = z.union([
  z.string(),
  z.object({
    relation: z.string(),
    scope: z.object({ fields: fieldsSchema.optional() }).optional(),
  }),
]);

export const searchFilterSchema = z
  .object({
    where: whereSchema.optional(),
    fields: fieldsSchema.optional(),
    order: orderSchema.optional(),
    limit: z.number().int().min(0).max(limits.filterLimitMax).optional(),
    skip: z.number().int().min(0).optional(),
    offset: z.number().int().min(0).optional(),
    include: z.array(includeItemSchema).optional(),
  })
  .strict();

export type SearchFilter = z.infer<typeof searchFilterSchema>;
export type Where = Record<string, unknown>;

/**
 * The text as a `like` pattern that matches it literally: `%`, `_` and the escape character `\` itself are
 * escaped with a backslash (the server compiles `like` with `escape '\'` on both databases).
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** A `like` pattern for "contains this text" (ASCII case is ignored on both databases). */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** The typeahead's user search (SPEC §5): username containing the text, 10 results, id and username. */
export function userSearchFilter(text: string): SearchFilter {
  return {
    where: { username: { like: containsPattern(text) } },
    fields: { id: true, username: true },
    limit: limits.searchPageSize,
    skip: 0,
  };
}

/** The typeahead's game search (SPEC §5): name containing the text, 10 results, id and name. */
export function gameSearchFilter(text: string): SearchFilter {
  return {
    where: { name: { like: containsPattern(text) } },
    fields: { id: true, name: true },
    limit: limits.searchPageSize,
    skip: 0,
  };
}
