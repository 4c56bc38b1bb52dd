type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The properties and required names of an object schema. */
export function propertiesOf(schema: Schema): { properties: Record<string, Schema>; required: string[] } {
  const properties: Record<string, Schema> = {};
  if (isSchema(schema.properties)) {
    for (const [name, value] of Object.entries(schema.properties))
      properties[name] = isSchema(value) ? value : {};
  }
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  return { properties, required };
}

/** A short type for one property: `string`, `number[]`, `"asc"|"desc"`. */
export function describeType(schema: Schema): string {
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum.slice(0, 5).map((value) => JSON.stringify(value));
    return values.join('|') + (schema.enum.length > 5 ? '|…' : '');
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = (
    Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : []
  )
    .filter(isSchema)
    .filter((variant) => variant.type !== 'null');
  if (variants.length > 0) return [...new Set(variants.map(describeType))].join('|');
  const type = Array.isArray(schema.type) ? schema.type.filter((name) => name !== 'null') : [schema.type];
  return (
    type
      .map((name) => {
        if (name === 'array') return `${isSchema(schema.items) ? describeType(schema.items) : 'any'}[]`;
        if (name === 'integer') return 'number';
        return typeof name === 'string' ? name : 'any';
      })
      .join('|') || 'any'
  );
}

/**
 * The parameters of a tool in one short line, TypeScript style, optional ones marked `?`:
 * `(location: string, adults?: number)`. Cut at `maxChars` with `…`.
 *
 * @example
 * ```ts
 * describeParameters({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
 * // '(message: string)'
 * ```
 */
export function describeParameters(schema: Schema, maxChars = 240): string {
  const { properties, required } = propertiesOf(schema);
  const parts = Object.entries(properties).map(
    ([name, property]) => `${name}${required.includes(name) ? '' : '?'}: ${describeType(property)}`,
  );
  // Required parameters first: they are the ones the model must not forget.
  parts.sort((a, b) => Number(a.split(':')[0]?.endsWith('?')) - Number(b.split(':')[0]?.endsWith('?')));
  let line = '';
  for (const [index, part] of parts.entries()) {
    const next = line === '' ? part : `${line}, ${part}`;
    if (next.length > maxChars) return `(${line}${index > 0 ? ', ' : ''}…)`;
    line = next;
  }
  return `(${line})`;
}

/**
 * The one string parameter plain text maps to: the only required parameter when it is a
 * string, or the only parameter at all when none is required and it is a string.
 */
export function singleTextParameter(schema: Schema): string | undefined {
  const { properties, required } = propertiesOf(schema);
  const isText = (name: string) => {
    const type = properties[name]?.type;
    return type === 'string' || (Array.isArray(type) && type.includes('string'));
  };
  if (required.length === 1) {
    const [name] = required as [string];
    return isText(name) ? name : undefined;
  }
  const names = Object.keys(properties);
  if (required.length === 0 && names.length === 1 && isText(names[0] as string)) return names[0];
  return undefined;
}
