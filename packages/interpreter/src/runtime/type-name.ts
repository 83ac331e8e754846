/** `typeof` names (reference §1.6). */
import { ErrorValue, type Value } from './value.ts';

/** The type names a value of this interpreter can have. */
export type TypeName = 'nil' | 'boolean' | 'number' | 'string' | 'list' | 'map' | 'error';

/** The `typeof` name of a value. */
export function typeName(value: Value): TypeName {
  if (value === null) return 'nil';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    case 'string':
      return 'string';
    default:
      if (Array.isArray(value)) return 'list';
      if (value instanceof ErrorValue) return 'error';
      return 'map';
  }
}
