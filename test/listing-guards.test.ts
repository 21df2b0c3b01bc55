// A guard that stops a listing keeps what arrived (issue 38): the pets of a page whose Link header cannot be read are printed before
// the error, and every guard's --json error carries "printed" and, where the walk knew where it would go on, "next".
import { afterEach, describe, expect, test } from 'vitest';
import { type PetService, type Step, startPetService } from '../sandbox/pet-service.mjs';
import { run, wrapped } from './helpers.js';

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const pet = (id: number) => ({ id, name: `pet-${id}`, categoryId: 1, status: 'available' });
const line = (id: number) => JSON.stringify(pet(id));
const page = (ids: number[], link?: string): Step => ({ status: 200, json: ids.map(pet), headers: link ? { link } : {} });

/** A service answering the steps in turn (the last repeats), and its environment. */
async function answering(...steps: Step[]) {
  service = await startPetService({ key: 'k', faults: steps });
  return { base: service.baseUrl, env: { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k' } };
}

const UNREADABLE = '</v1/pets?page=3; rel="next"';

describe('a page whose Link header cannot be read: its pets are printed, then exit 1', () => {
  test('list --all --format ndjson: page 2 printed whole, the error names the page and the count', async () => {
    const { env } = await answering(page([1, 2], '</v1/pets?page=2>; rel="next"'), page([3, 4], UNREADABLE));
    const r = await run(['list', '--all', '--format', 'ndjson'], { env });
    expect(r).toMatchObject({
      code: 1,
      stdout: [1, 2, 3, 4].map((id) => `${line(id)}\n`).join(''),
      stderr: wrapped(`error: stopped at page 2, after 4 pets: unexpected response: unreadable Link header: "${UNREADABLE}"\n`),
    });
    expect(service!.requests).toHaveLength(2);
  });

  test('--json: the array cut after page 2; the error carries "printed", and no "next" (none could be read)', async () => {
    const { env } = await answering(page([1, 2], '</v1/pets?page=2>; rel="next"'), page([3, 4], UNREADABLE));
    const r = await run(['list', '--all', '--json'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`[${[1, 2, 3, 4].map(line).join(',')}`);
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'unexpected_response',
      message: `stopped at page 2, after 4 pets: unexpected response: unreadable Link header: "${UNREADABLE}"`,
      status: null,
      printed: 4,
    });
  });

  test('a table prints the rows of both pages', async () => {
    const { env } = await answering(page([1, 2], '</v1/pets?page=2>; rel="next"'), page([3, 4], UNREADABLE));
    const r = await run(['list', '--all', '--format', 'table'], { env });
    expect(r.code).toBe(1);
    for (const id of [1, 2, 3, 4]) expect(r.stdout).toContain(`│ ${id}  │ pet-${id} `);
  });

  test('a next target that is no URL (<http://[::1/>) is the same unreadable Link, not an unexpected failure', async () => {
    const { env } = await answering(page([1], '<http://[::1/>; rel="next"'));
    const r = await run(['list', '--all', '--format', 'ndjson'], { env });
    expect(r).toMatchObject({
      code: 1,
      stdout: `${line(1)}\n`,
      stderr: wrapped('error: stopped at page 1, after 1 pet: unexpected response: unreadable Link header: "<http://[::1/>; rel="next""\n'),
    });
  });

  test('without --all too, the one page is printed before the error', async () => {
    const { env } = await answering(page([1, 2], UNREADABLE));
    const r = await run(['list', '--format', 'tsv'], { env });
    expect(r).toMatchObject({
      code: 1,
      stdout: '1\tpet-1\t1\tavailable\n2\tpet-2\t1\tavailable\n',
      stderr: wrapped(`error: stopped at page 1, after 2 pets: unexpected response: unreadable Link header: "${UNREADABLE}"\n`),
    });
  });

  test('api --paginate prints the page, then stops with "printed"', async () => {
    const { env } = await answering(page([1, 2], '</v1/pets?page=2>; rel="next"'), page([3], UNREADABLE));
    const r = await run(['api', '/pets', '--paginate', '--json'], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`[${[1, 2, 3].map(line).join(',')}`);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'unexpected_response', printed: 3 });
    expect(JSON.parse(r.stderr)).not.toHaveProperty('next');
  });
});

describe("every guard's --json error carries printed, and next where known", () => {
  test('a link to another origin: printed, no next (petstore never follows it)', async () => {
    const { env } = await answering(page([1, 2], '<https://elsewhere.example/v1/pets?page=2>; rel="next"'));
    const r = await run(['list', '--all', '--format', 'ndjson', '--json'], { env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toEqual({
      code: 'cross_origin_link',
      message: 'stopped at page 1, after 2 pets: refusing to follow the next page link to another origin: https://elsewhere.example',
      status: null,
      printed: 2,
    });
  });

  test('a link back to a page already fetched: printed, and next, the link', async () => {
    const { base, env } = await answering(page([1, 2], '</v1/pets?page=2>; rel="next"'), page([3], '</v1/pets?page=2>; rel="next"'));
    const r = await run(['list', '--all', '--format', 'ndjson', '--json'], { env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'repeated_page', printed: 3, next: `${base}/pets?page=2` });
  });

  test('empty pages linked on: printed, and next, the link of the last', async () => {
    const { base, env } = await answering(
      page([1], '</v1/pets?page=2>; rel="next"'),
      page([], '</v1/pets?page=3>; rel="next"'),
      page([], '</v1/pets?page=4>; rel="next"'),
      page([], '</v1/pets?page=5>; rel="next"'),
    );
    const r = await run(['list', '--all', '--format', 'ndjson', '--json'], { env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'empty_pages', printed: 1, next: `${base}/pets?page=5` });
  });

  test('api --paginate: a link to another origin after two pages: printed counts both', async () => {
    const { env } = await answering(page([1], '</v1/pets?page=2>; rel="next"'), page([2], '<https://elsewhere.example/x>; rel="next"'));
    const r = await run(['api', '/pets', '--paginate', '--json'], { env });
    expect(r).toMatchObject({ code: 1, stdout: `[${line(1)},${line(2)}` });
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'cross_origin_link', printed: 2 });
  });
});
