/** `petstore add` at a terminal without --name or --category-id asks for them (as `gh issue create`), prompts on stderr, each checked as its flag, an error naming the prompt. */
import input from '@inquirer/input';
import select from '@inquirer/select';
import { PET_STATUSES } from '../../interface-values.js';
import { Int64Text, NewPet, type PetStatus } from '../../api/schemas.js';
import { InterruptedError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { wrapLine } from '../../terminal/wrap.js';
import { parseFlag } from '../parse-flag.js';

/** What the flags gave; `statusGiven`: --status was given, so the status is not asked. */
export interface GivenFields {
  name?: string;
  categoryId?: bigint;
  status?: PetStatus;
  statusGiven: boolean;
}

/** What a bad answer's error names (parseFlag's `invalid value for ...`). */
const CATEGORY_ID_PROMPT = 'the category id';

/**
 * The check's failure message, or true (inquirer's `validate` form). The message is wrapped between words at `columns` less the "> "
 * inquirer puts before it, as inquirer itself would break it at the terminal's edge, inside a word.
 */
function check(fn: () => unknown, columns: number): string | true {
  try {
    fn();
    return true;
  } catch (error) {
    if (error instanceof UsageError) return wrapLine(error.message, columns - 2, '', '  ').join('\n');
    throw error;
  }
}

/**
 * Asks for what `given` lacks: the name (not empty), the category id (an int64, as --category-id) and, without --status, a status or none.
 * Returns the NewPet. Throws InterruptedError (exit 130) on Ctrl-C, UsageError (exit 2) when the input ends.
 */
export async function promptNewPet(f: Factory, given: GivenFields): Promise<NewPet> {
  const context = { input: f.io.std.stdin, output: f.io.std.promptOutput, clearPromptOnDone: false } as never;
  const columns = f.io.errColumns ?? 80;
  try {
    const name =
      given.name ??
      (await input(
        {
          message: 'Name',
          validate: (value) => (value === '' ? 'the name must not be empty' : check(() => NewPet.shape.name.parse(value), columns)),
        },
        context,
      ));
    // The prompt's errors name the prompt: no flag was typed.
    const categoryId =
      given.categoryId ??
      parseFlag(
        Int64Text,
        await input(
          {
            message: 'Category id (an int64)',
            validate: (value) => check(() => parseFlag(Int64Text, value.trim(), CATEGORY_ID_PROMPT), columns),
          },
          context,
        ).then((value) => value.trim()),
        CATEGORY_ID_PROMPT,
      );
    let status = given.status;
    if (!given.statusGiven) {
      const choice = await select<PetStatus | 'none'>(
        {
          message: 'Status',
          choices: [...PET_STATUSES.map((value) => ({ value })), { value: 'none' as const, name: 'none (no status sent)' }],
        },
        context,
      );
      status = choice === 'none' ? undefined : choice;
    }
    return NewPet.parse({ name, categoryId, ...(status === undefined ? {} : { status }) });
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new InterruptedError('SIGINT');
    if (error instanceof Error && error.name === 'AbortPromptError')
      throw new UsageError('the prompt was ended before every field was given');
    throw error;
  }
}
