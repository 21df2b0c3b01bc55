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

  test('a chunk larger than 8 KiB comes in batches of at most 8 KiB of it, items across their bounds whole, with their lines', async () => {
    const lines = Array.from({ length: 600 }, (_, i) => `{"name":"pet-${i}","categoryId":${i}}`);
    const chunk = Buffer.from(`${lines.join('\n')}\n`);
    const seen: number[] = [];
    const out: InputItem[] = [];
    for await (const batch of readItemBatches([chunk], (bytes) => seen.push(bytes))) out.push(...batch);
    expect(seen.every((bytes) => bytes <= 8192)).toBe(true);
    expect(seen.reduce((a, b) => a + b, 0)).toBe(chunk.length);
    expect(seen.length).toBe(Math.ceil(chunk.length / 8192));
    expect(out).toEqual(lines.map((_, i) => ({ line: i + 1, value: { name: `pet-${i}`, categoryId: BigInt(i) } })));
  });

  test('multi-byte characters split across chunks are decoded', async () => {
    const bytes = Buffer.from('{"name":"Félix"}\n');
    const out: InputItem[] = [];
    for await (const batch of readItemBatches([bytes.subarray(0, 11), bytes.subarray(11)])) out.push(...batch);
    expect(out).toEqual([{ line: 1, value: { name: 'Félix' } }]);
  });
});

describe('readItemBatches reads input exactly as given', () => {
  async function fromBytes(chunks: Buffer[]): Promise<InputItem[]> {
    const out: InputItem[] = [];
    for await (const batch of readItemBatches(chunks)) out.push(...batch);
    return out;
  }

  test('bytes that are not UTF-8 fail their own item, named by line; the items around it are read', async () => {
    const bad = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('","categoryId":1}')]);
    const input = Buffer.concat([Buffer.from('{"name":"a","categoryId":1}\n'), bad, Buffer.from('\n{"name":"b","categoryId":2}\n')]);
    expect(await fromBytes([input])).toEqual([
      { line: 1, value: { name: 'a', categoryId: 1n } },
      {
        line: 2,
        error: 'not valid UTF-8: {"name":"Caf\uFFFD","categoryId":1}',
        text: '{"name":"Caf\uFFFD","categoryId":1}',
        bytes: bad,
      },
      { line: 3, value: { name: 'b', categoryId: 2n } },
    ]);
  });

  test('the same in a JSON array', async () => {
    const input = Buffer.concat([
      Buffer.from('[{"name":"x'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","categoryId":1},\n{"name":"y","categoryId":2}]'),
    ]);
    const items = await fromBytes([input]);
    expect(items[0]).toMatchObject({ line: 1, index: 0, error: expect.stringMatching(/^not valid UTF-8: /) });
    expect(items[1]).toEqual({ line: 2, index: 1, value: { name: 'y', categoryId: 2n } });
  });

  test('a byte order mark at the start and CRLF line ends are accepted', async () => {
    const ndjson = Buffer.from('\uFEFF{"name":"a","categoryId":1}\r\n{"name":"b","categoryId":2}\r\n');
    expect(await fromBytes([ndjson])).toEqual([
      { line: 1, value: { name: 'a', categoryId: 1n } },
      { line: 2, value: { name: 'b', categoryId: 2n } },
    ]);
    const array = Buffer.from('\uFEFF[\r\n  {"name":"a","categoryId":1},\r\n  {"name":"b","categoryId":2}\r\n]\r\n');
    expect(await fromBytes([array.subarray(0, 2), array.subarray(2)])).toEqual([
      { line: 2, index: 0, value: { name: 'a', categoryId: 1n } },
      { line: 3, index: 1, value: { name: 'b', categoryId: 2n } },
    ]);
  });

  test('an empty input, or one of white space only, has no items', async () => {
    expect(await fromBytes([])).toEqual([]);
    expect(await fromBytes([Buffer.from(' \n\r\n ')])).toEqual([]);
  });

  test('a line over many chunks is joined once; a message quotes an excerpt of it', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const chunks = [Buffer.from('{"name":"'), ...Array.from({ length: 64 }, () => chunk), Buffer.from('", oops}\n')];
    const [item] = await fromBytes(chunks);
    expect(item!.error).toBe(`malformed JSON: {"name":"${'a'.repeat(51)}…`);
    expect(item!.text).toHaveLength(9 + 64 * 64 * 1024 + 8);
  });
});
