import { describe, expect, test } from 'vitest';
import { readItemBatches, type InputItem } from '../src/bulk/read-items.js';

async function items(chunks: string[]): Promise<InputItem[]> {
  const out: InputItem[] = [];
  for await (const batch of readItemBatches(chunks)) out.push(...batch);
  return out;
}

describe('readItemBatches', () => {
  test('NDJSON: items with their lines, blank lines skipped, malformed lines reported, split chunks joined', async () => {
    expect(await items(['{"name":"a","categoryId":9007199254740993}\n\n{"name":"b"', ',"categoryId":2}\nnot json\n{"x":1}'])).toEqual([
      { line: 1, value: { name: 'a', categoryId: 9007199254740993n } },
      { line: 3, value: { name: 'b', categoryId: 2n } },
      { line: 4, error: 'malformed JSON: not json', text: 'not json' },
      { line: 5, value: { x: 1n } },
    ]);
  });

  test('JSON array: elements with index and starting line, strings holding , ] and escaped quotes', async () => {
    expect(await items(['  [\n {"name":"a,]","categoryId":1},\n', ' {"name":"b\\"}","categoryId":[1,2]}\n, 5 ]\n'])).toEqual([
      { line: 2, index: 0, value: { name: 'a,]', categoryId: 1n } },
      { line: 3, index: 1, value: { name: 'b"}', categoryId: [1n, 2n] } },
      { line: 4, index: 2, value: 5n },
    ]);
  });

  test('JSON array: an empty array has no items; a truncated one and trailing content are reported', async () => {
    expect(await items(['[]'])).toEqual([]);
    expect(await items(['[{"a":1},', ''])).toEqual([
      { line: 1, index: 0, value: { a: 1n } },
      { line: 1, error: 'the input ends inside the JSON array' },
    ]);
    // The element the input ends in keeps its whole text, and is not taken as an item even when complete.
    expect(await items(['[{"a":1},\n {"b":', '2}'])).toEqual([
      { line: 1, index: 0, value: { a: 1n } },
      { line: 2, index: 1, error: 'the input ends inside the JSON array', text: '{"b":2}' },
    ]);
    expect(await items(['[{"a":1}] x'])).toEqual([
      { line: 1, index: 0, value: { a: 1n } },
      { line: 1, error: 'unexpected content after the end of the JSON array' },
    ]);
  });

  test('multi-byte characters split across chunks are decoded', async () => {
    const bytes = Buffer.from('{"name":"Félix"}\n');
    const out: InputItem[] = [];
    for await (const batch of readItemBatches([bytes.subarray(0, 11), bytes.subarray(11)])) out.push(...batch);
    expect(out).toEqual([{ line: 1, value: { name: 'Félix' } }]);
  });
});
