/**
 * The tables `get -` draws, without colour, for ids typed a line at a time against the sandbox's generated pets (`pet-1`...): the line
 * "1", then the line "2 3". Each is a table of its own, its columns as wide as its own rows (test/get-many.test.ts, test/pty-get.test.ts).
 */
export const TABLE_OF_1 = [
  '┌────┬───────┬─────────────┬───────────┐',
  '│ ID │ NAME  │ CATEGORY ID │ STATUS    │',
  '├────┼───────┼─────────────┼───────────┤',
  '│ 1  │ pet-1 │ 1           │ available │',
  '└────┴───────┴─────────────┴───────────┘',
];

export const TABLE_OF_2_3 = [
  '┌────┬───────┬─────────────┬─────────┐',
  '│ ID │ NAME  │ CATEGORY ID │ STATUS  │',
  '├────┼───────┼─────────────┼─────────┤',
  '│ 2  │ pet-2 │ 2           │ pending │',
  '│ 3  │ pet-3 │ 3           │ sold    │',
  '└────┴───────┴─────────────┴─────────┘',
];
