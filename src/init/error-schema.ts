/**
 * A JSON Schema derived from the error bodies a target sent: the properties every sample had are required, types
 * are what was seen. It is deliberately open (no additionalProperties: false): a property that only an error init
 * did not provoke carries must not become a false failure in the run.
 */
export type JsonSchema = Record<string, unknown>;

const MAX_DEPTH = 6;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

export function deriveSchema(samples: readonly unknown[], depth = 0): JsonSchema {
  const types = [...new Set(samples.map(typeOf))];
  if (types.includes('number') && types.includes('integer')) types.splice(types.indexOf('integer'), 1);
  if (types.length !== 1 || depth >= MAX_DEPTH) return types.length === 0 ? {} : { type: types.length === 1 ? types[0] : types };
  const [type] = types;
  if (type === 'object') {
    const objects = samples as Array<Record<string, unknown>>;
    const names = [...new Set(objects.flatMap((o) => Object.keys(o)))].sort();
    const properties: Record<string, JsonSchema> = {};
    for (const name of names) properties[name] = deriveSchema(objects.filter((o) => name in o).map((o) => o[name]), depth + 1);
    const required = names.filter((name) => objects.every((o) => name in o));
    return { type, ...(required.length > 0 ? { required } : {}), properties };
  }
  if (type === 'array') {
    const items = (samples as unknown[][]).flat();
    return { type, ...(items.length > 0 ? { items: deriveSchema(items, depth + 1) } : {}) };
  }
  return { type };
}

/** The file init writes beside the config. */
export function errorSchemaDocument(samples: readonly unknown[], evidence: readonly string[]): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Error body of the target, as harness init saw it',
    description: `Derived from: ${evidence.join('; ')}. Edit it to match your documentation.`,
    ...deriveSchema(samples),
  };
}
