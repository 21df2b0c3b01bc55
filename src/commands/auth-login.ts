/**
 * `petstore auth login [--with-token]`: stores an API key for the selected
 * environment in the config store. On a TTY it prompts without echo; with
 * `--with-token` it reads the key from standard input (for scripts).
 */
import { read } from 'read';
import { API_KEY_FORMAT, type Context } from '../context.js';
import { UsageError } from '../errors.js';

/** Reads all of a stream as UTF-8 text. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Checks a key as typed or piped: surrounding white space is dropped; the rest
 * must be non-empty printable ASCII without spaces, since it becomes an HTTP
 * header value. Throws UsageError without echoing the key.
 */
export function checkApiKey(raw: string): string {
  const key = raw.trim();
  if (!key) throw new UsageError('no API key given: the input was empty');
  if (!API_KEY_FORMAT.test(key)) {
    throw new UsageError('invalid API key: it must be printable ASCII without spaces (the key is not shown)');
  }
  return key;
}

export default async function login(ctx: Context, _args: string[], flags: { withToken?: boolean }): Promise<void> {
  const envName = ctx.envName().value;
  let raw: string;
  if (flags.withToken) {
    raw = await readAll(ctx.io.stdin);
  } else if (ctx.io.stdinIsTTY) {
    raw = await read({
      prompt: `API key for ${envName}: `,
      silent: true,
      replace: '',
      input: ctx.io.stdin as never,
      output: process.stderr,
    });
    // The silent prompt swallows the Enter too; end its line.
    ctx.io.stderr.write('\n');
  } else {
    throw new UsageError(
      'no terminal to prompt for the key on',
      'Pipe it instead: petstore auth login --with-token < key.txt',
    );
  }
  const key = checkApiKey(raw);
  const store = await ctx.store();
  store.setField(envName, 'apiKey', key);
  ctx.warn(`Logged in to ${envName}: key stored in ${store.path}`);
  if (ctx.env.PETSTORE_API_KEY) ctx.warn('note: PETSTORE_API_KEY is set and takes precedence over the stored key');
}
