/** How messages count things: "1 pet", "3 pets"; "1 order", "3 orders". */

/** What is counted, as counts say it: `{ one: 'order', many: 'orders' }` gives "1 order", "3 orders". */
export interface Noun {
  one: string;
  many: string;
}

/** A count in `noun`'s words: "1 order", "3 orders". */
export function countOf(noun: Noun): (n: number) => string {
  return (n) => `${n} ${n === 1 ? noun.one : noun.many}`;
}

/** The interface's animals, as messages count them. */
export const PETS: Noun = { one: 'pet', many: 'pets' };

/** "1 pet", "3 pets": a count of pets for messages. */
export const petCount: (n: number) => string = countOf(PETS);
