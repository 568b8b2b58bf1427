import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * How answers are written (decision 0036): the routes declare their answers as the contract's
 * zod schemas.
 * - `checked` (tests, development): zod encodes every answer, so an answer that breaks the contract fails loudly
 *   (a 500 with the route named), and the compiled writer's text is compared with it: the two must say the same.
 * - `compiled` (production): fast-json-stringify writes the answer from the JSON Schema of the same zod schema
 *   (z.toJSONSchema, the output side), which keeps only the declared properties, as zod does, at a fraction of the
 *   cost (the zod encoder was 13 % of an API read's busy time). The tests' checks guard the contract.
 */
export type SerializerMode = 'checked' | 'compiled';

type RouteSchema = Parameters<FastifySerializerCompiler<unknown>>[0];

/** The zod schema a route declared for an answer (directly, or fastify-type-provider-zod's `{ properties }` form). */
function zodSchemaOf(schema: unknown): z.ZodType {
  if (schema instanceof z.ZodType) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (properties instanceof z.ZodType) return properties;
  throw new Error(`a route declared an answer that is not a zod schema: ${JSON.stringify(schema)}`);
}

/** The fast-json-stringify writer of a zod schema's output. */
export function compileZodWriter(schema: z.ZodType): (data: unknown) => string {
  const json = z.toJSONSchema(schema, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'any',
    reused: 'inline',
    cycles: 'ref',
  });
  return fastJson(json as Parameters<typeof fastJson>[0]);
}

/**
 * Compiled when the route first answers, not when the server starts (a writer for each of the ~150 routes
 * at start-up was start-up time and idle memory for routes an instance may never serve). The tests compile every
 * writer of every route they call in `checked` mode, so a schema the writer cannot take fails there.
 */
const compiled: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const zodSchema = zodSchemaOf(schema);
  let write: ((data: unknown) => string) | undefined;
  return (data: unknown) => (write ??= compileZodWriter(zodSchema))(data);
};

const checked: FastifySerializerCompiler<unknown> = (route: RouteSchema) => {
  const encode = zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
  const write = compileZodWriter(zodSchemaOf(route.schema));
  return (data: unknown) => {
    const text = encode(data);
    const compiledText = write(data);
    if (!isDeepStrictEqual(JSON.parse(compiledText), JSON.parse(text))) {
      throw new Error(
        `${route.method} ${route.url}: the compiled writer's answer differs from zod's\n  zod:      ${text.slice(0, 2000)}\n  compiled: ${compiledText.slice(0, 2000)}`,
      );
    }
    return text;
  };
};

export function responseSerializerCompiler(mode: SerializerMode): FastifySerializerCompiler<unknown> {
  return mode === 'compiled' ? compiled : checked;
}
