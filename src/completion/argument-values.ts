/** Fixed values an operand completes to (a config key, a help topic), kept beside commander's Argument without its choice check. */
import type { Argument } from '@commander-js/extra-typings';

const VALUES = new WeakMap<object, readonly string[]>();

/** Makes `argument` complete to `values` (its command's zod schema, not commander, checks what is given); returns it. */
export function completesTo<A extends Argument>(argument: A, values: readonly string[]): A {
  VALUES.set(argument, values);
  return argument;
}

/** The values `argument` completes to; empty when it has none. */
export function completionsOf(argument: object | undefined): readonly string[] {
  return (argument && VALUES.get(argument)) ?? [];
}
