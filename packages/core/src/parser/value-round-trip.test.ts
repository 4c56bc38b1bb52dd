import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FAMILY_WRITERS, type FamilyWriter, type WrittenCall } from '../../test/fixtures/family-writers.js';
import {
  generatedArguments,
  STRING_PIECES,
  schemaType,
  seededRandom,
} from '../../test/fixtures/json-generator.js';
import { parseToolCalls } from './parse-tool-call.js';
import type { ToolSyntax } from './tool-syntax.js';

const NAMES = ['get_weather', 'search_files', 'run_query'];
const ROUNDS = 150;

/** The calls of one round: one to three, each to one of the tools, values from every class. */
function generatedCalls(random: () => number, writer: FamilyWriter): WrittenCall[] {
  const pieces = STRING_PIECES.filter((piece) => !writer.excludes?.(piece));
  const count = 1 + Math.floor(random() * 3);
  return Array.from({ length: count }, () => ({
    name: NAMES[Math.floor(random() * NAMES.length)] as string,
    args: generatedArguments(random, { pieces }),
  }));
}

/** A schema that `value` fits: its type, its items' (one type, or the list of them) and properties'. */
function schemaOf(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) {
    const types = [...new Set(value.map(schemaType))];
    const items = types.length === 1 ? schemaOf(value[0]) : { type: types };
    return { type: 'array', items };
  }
  if (typeof value === 'object' && value !== null) {
    const properties = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, schemaOf(item)]));
    return { type: 'object', properties, additionalProperties: true };
  }
  return { type: schemaType(value) };
}

/**
 * For a format that writes nested values as untyped text: lists of one type of scalar, or of one
 * container, so the schema can say what each item is.
 */
function typeable(value: unknown): unknown {
  if (Array.isArray(value)) {
    const [first] = value;
    if (typeof first === 'object' && first !== null) return [typeable(first)];
    return value.filter((item) => schemaType(item) === schemaType(first));
  }
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typeable(item)]));
  return value;
}

/**
 * The tools offered, each parameter's schema the value's: tag formats write every value as text,
 * and only a schema tells the text `12` of a string from the number 12.
 */
function toolsFor(calls: readonly WrittenCall[]): ToolSyntax[] {
  return NAMES.map((name) => {
    const properties: Record<string, unknown> = {};
    for (const call of calls.filter((item) => item.name === name))
      for (const [key, value] of Object.entries(call.args)) properties[key] ??= schemaOf(value);
    return { name, parameters: { type: 'object', properties, additionalProperties: true } };
  });
}

/** Each tool's key holds values of one schema in a round, so one schema fits every call. */
function consistent(calls: WrittenCall[], writer: FamilyWriter): WrittenCall[] {
  const schemas = new Map<string, string>();
  return calls.map((call) => {
    const args: Record<string, unknown> = {};
    for (const [key, written] of Object.entries(call.args)) {
      const value = writer.untypedNesting ? typeable(written) : written;
      const schema = JSON.stringify(schemaOf(value));
      const typeKey = `${call.name}.${key}`;
      if ((schemas.get(typeKey) ?? schema) === schema) args[key] = value;
      schemas.set(typeKey, schemas.get(typeKey) ?? schema);
    }
    return { ...call, args };
  });
}

const read = (text: string, tools: ToolSyntax[]) =>
  parseToolCalls(text, tools).map((call) => ({
    name: call.tool,
    args: call.arguments ?? {},
    problem: call.problem,
  }));

describe('argument values round-trip through every family’s format', () => {
  for (const writer of FAMILY_WRITERS) {
    it(`gives back every generated value exactly: ${writer.family}`, () => {
      const random = seededRandom(46);
      for (let round = 0; round < ROUNDS; round++) {
        const calls = consistent(generatedCalls(random, writer), writer);
        const text = writer.write(calls);
        const expected = calls.map((call) => ({ name: call.name, args: call.args, problem: undefined }));
        const got = read(text, toolsFor(calls));
        if (!isDeepStrictEqual(got, expected)) expect({ text, got }).toEqual({ text, got: expected });
      }
    });

    if (!writer.textValues)
      it(`gives back every generated value exactly with tool names alone: ${writer.family}`, () => {
        const random = seededRandom(4646);
        for (let round = 0; round < ROUNDS; round++) {
          const calls = generatedCalls(random, writer);
          const text = writer.write(calls);
          const got = parseToolCalls(text, NAMES).map((call) => ({
            name: call.tool,
            args: call.arguments ?? {},
          }));
          if (!isDeepStrictEqual(got, calls)) expect({ text, got }).toEqual({ text, got: calls });
        }
      });

    it(`reads no call, or only the whole ones, from a reply cut anywhere: ${writer.family}`, () => {
      const random = seededRandom(460);
      for (let round = 0; round < 20; round++) {
        const calls = consistent(generatedCalls(random, writer), writer);
        const text = writer.write(calls);
        const tools = toolsFor(calls);
        const whole = read(text, tools);
        for (let cut = 1; cut < text.length; cut++) {
          const got = read(text.slice(0, cut), tools);
          const partial = got.some((call, index) => !isDeepStrictEqual(call, whole[index]));
          if (partial)
            expect({ prefix: text.slice(0, cut), got }).toEqual({
              prefix: text.slice(0, cut),
              got: whole.slice(0, got.length),
            });
        }
      }
    });
  }
});
