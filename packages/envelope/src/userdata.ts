/**
 * USERDATA validation per seed 003 §3.5: a JSON object with a string
 * `subject`, an optional string `brief` and an object `fields`.
 */
import { UserdataSchemaError } from './errors.ts';

/** Validated USERDATA. */
export interface Userdata {
  subject: string;
  brief?: string;
  fields: Record<string, unknown>;
  /** Any other keys, kept as given. */
  [key: string]: unknown;
}

/**
 * Parses and validates USERDATA text (or an already parsed value). Throws
 * `ERR_USERDATA_SCHEMA` whose `path` names the first problem (`$`, `$.subject`,
 * `$.brief`, `$.fields`).
 */
export function validateUserdata(input: string | unknown): Userdata {
  let value: unknown = input;
  if (typeof input === 'string') {
    if (input.trim() === '') throw schemaError('$', 'USERDATA is empty; it must be a JSON object like {"subject":"…","fields":{}}');
    try {
      value = JSON.parse(input);
    } catch (error) {
      throw schemaError('$', `USERDATA is not valid JSON (${(error as Error).message})`);
    }
  }
  if (!isPlainObject(value)) throw schemaError('$', `USERDATA must be a JSON object, found ${describe(value)}`);
  if (!Object.hasOwn(value, 'subject')) throw schemaError('$.subject', 'USERDATA is missing "subject" (a string)');
  if (typeof value.subject !== 'string') throw schemaError('$.subject', `"subject" must be a string, found ${describe(value.subject)}`);
  if (Object.hasOwn(value, 'brief') && typeof value.brief !== 'string') throw schemaError('$.brief', `"brief" must be a string when present, found ${describe(value.brief)}`);
  if (!Object.hasOwn(value, 'fields')) throw schemaError('$.fields', 'USERDATA is missing "fields" (an object)');
  if (!isPlainObject(value.fields)) throw schemaError('$.fields', `"fields" must be an object, found ${describe(value.fields)}`);
  return value as Userdata;
}

function schemaError(path: string, message: string): UserdataSchemaError {
  return new UserdataSchemaError(`${message} (at ${path})`, { path });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
