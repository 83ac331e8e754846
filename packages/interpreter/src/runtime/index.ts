/** Value semantics of NeuroScript: pure, dependency-free, runs inside the isolate. */
export { add, multiply, negate, numeric } from './arithmetic.ts';
export { bitwise, bitwiseNot } from './bitwise.ts';
export { callBuiltin, findBuiltin, runeCount } from './builtins.ts';
export { compare } from './compare.ts';
export { deepEquals, scriptEquals } from './equals.ts';
export { errorKind, numericCodeOf, SCRIPT_ERROR_CODES, skipsHandlers, type ErrorCodeInfo, type ErrorKind, type ScriptErrorCode } from './error-codes.ts';
export { formatNumber } from './format-number.ts';
export { indexValue } from './index-value.ts';
export { fromJson, toJson, type JsonValue } from './json-value.ts';
export { DEFAULT_LIMITS, MAX_ASKS_AND_PROMPTS, resolveLimits, type RunLimits } from './limits.ts';
export { grantOfDenial, neededGrantOf, type NeededGrant } from './needed-grant.ts';
export { describeValue, renderValue, toText, typedValue } from './render.ts';
export { fail, ScriptError, type ErrorFrame, type Position, type ScriptErrorData } from './script-error.ts';
export { ARGUMENT_CHARS_PER_STRING_LENGTH, checkCollectionSize, checkStringLength, checkValueDepth, isStackOverflow, MAX_ENGINE_STRING_LENGTH, MAX_VALUE_DEPTH } from './size-check.ts';
export { toInteger, toNumeric } from './to-number.ts';
export { isTruthy } from './truthy.ts';
export { typeName, type TypeName } from './type-name.ts';
export { ErrorValue, isList, isMap, sortedKeys, type ListValue, type MapValue, type Value } from './value.ts';
