// get - on a real terminal (issue 37 item 2: output starts before the input ends): a person typing ids, a line at a time, sees the
// table of each line's pets before typing the next; so does one whose ids come through a pipe that pauses (cat reading the terminal).
import { afterEach, describe, expect, test } from 'vitest';
import { type PetService, startPetService } from '../sandbox/pet-service.mjs';
import { runInPty } from './pty.js';
import { TABLE_OF_1 as FIRST, TABLE_OF_2_3 as SECOND } from './support/get-tables.js';

let service: PetService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function serve(): Promise<NodeJS.ProcessEnv> {
  service = await startPetService({ key: 'k', seed: 5 });
  return { PETSTORE_BASE_URL: service.baseUrl, PETSTORE_API_KEY: 'k', PETSTORE_NO_DEPRECATION_WARNING: '1' };
}

describe('get - at a terminal, the ids typed a line at a time', () => {
  test('each line typed is answered by its table before the next is typed; Ctrl-D ends the input', async () => {
    const run = runInPty(['get', '-'], { env: await serve() });
    await run.waitFor('Ctrl-D ends the input');
    run.type('1\r');
    await run.waitFor(/pet-1[\s\S]*└/);
    expect(await run.text()).toEqual(['reading pet ids from the terminal, one or more a line; Ctrl-D ends the input', '1', ...FIRST]);
    run.type('2 3\r');
    await run.waitFor(/pet-3[\s\S]*└/);
    run.type('\x04');
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual([
      'reading pet ids from the terminal, one or more a line; Ctrl-D ends the input',
      '1',
      ...FIRST,
      '2 3',
      ...SECOND,
    ]);
  });

  test('through a pipe that pauses (cat of the terminal into get -): the same tables as the lines come', async () => {
    const run = runInPty(['get', '-'], { env: await serve(), shell: 'cat | $PETSTORE' });
    run.type('1\r');
    await run.waitFor(/pet-1[\s\S]*└/);
    expect(await run.text()).toEqual(['1', ...FIRST]);
    run.type('2 3\r');
    await run.waitFor(/pet-3[\s\S]*└/);
    run.type('\x04');
    expect(await run.exited).toBe(0);
    expect(await run.text()).toEqual(['1', ...FIRST, '2 3', ...SECOND]);
  });
});
