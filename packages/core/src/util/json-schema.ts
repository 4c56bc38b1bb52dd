/** A JSON Schema; a tool's `parameters` is an object schema (`{ type: 'object', properties }`). */
export type JsonSchema = Record<string, unknown>;
