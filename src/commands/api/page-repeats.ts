/**
 * `api --paginate`'s guard against a listing that goes round or repeats itself while the store changes: a page of JSON objects that all
 * carry an integer `id` (pets) is passed on without the ids printed before, as `list --all` does; any other page is told by its bytes.
 */
import { Int64Set } from '../../api/int64-set.js';
import { Repeats } from '../../api/pages.js';
import { wholeInt64 } from '../../api/schemas.js';
import { isJsonObject, JsonNumber } from '../../json.js';

/** An item's `id` as an int64 key, or undefined when it has none (not an object, no integer id in int64 range). */
function idOf(item: unknown): number | bigint | undefined {
  if (!isJsonObject(item)) return undefined;
  const id = item.id;
  if (typeof id === 'number') return Number.isSafeInteger(id) ? id : undefined;
  if (typeof id === 'bigint') return BigInt.asIntN(64, id) === id ? id : undefined;
  return id instanceof JsonNumber ? wholeInt64(id.source) : undefined;
}

/** What a page holds that was not printed before. */
export interface PassedPage {
  /** The page's JSON without the items printed before (a page told by its bytes: as it came). */
  json: unknown;
  /** False when nothing on it is new: all its ids were printed before, or a page of the same bytes was read. */
  fresh: boolean;
  /** Items left out as printed before. */
  dropped: number;
}

export class PageRepeats {
  private readonly ids = new Repeats<unknown>(idOf);
  /** A 64-bit digest of each page told by its bytes. */
  private readonly bodies = new Int64Set();

  /** `json` (undefined: a body that is not JSON), the page whose body is `text`, without what was printed before. */
  pass(json: unknown, text: string): PassedPage {
    if (Array.isArray(json) && json.length === 0) return { json, fresh: true, dropped: 0 };
    if (Array.isArray(json) && json.every((item) => idOf(item) !== undefined)) {
      const kept = this.ids.fresh(json);
      return { json: kept, fresh: kept.length > 0, dropped: json.length - kept.length };
    }
    // node:crypto only when a page has no ids: `api` loads it for nothing else.
    const digest = process.getBuiltinModule('node:crypto').hash('sha1', text, 'buffer');
    return { json, fresh: this.bodies.add(digest.readBigInt64LE(0)), dropped: 0 };
  }
}
