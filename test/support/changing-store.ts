/**
 * Stores that change while they are read (issue 38), as `faults` of sandbox/pet-service.mjs: GET /pets pages served by the test, the
 * rest by the sandbox. What each page held is recorded, so that a test counts what the service sent against what petstore printed.
 */
import type { Faults, Step } from '../../sandbox/pet-service.mjs';

export interface ListedPet {
  id: number | bigint;
  name: string;
  categoryId: number;
  status: string;
}

export const listedPet = (id: number | bigint): ListedPet => ({ id, name: `pet-${id}`, categoryId: 1, status: 'available' });

/** A GET /pets page as the test serves it: its pets and its next link (a path under the origin), if any. */
export interface ServedPage {
  pets: ListedPet[];
  next?: string;
}

/** A listing the test serves page by page: `faults` for the sandbox, and every page served, in order. */
export interface ServedListing {
  faults: Faults;
  served: ServedPage[];
  /** The ids of every pet served, repeats included. */
  servedIds(): (number | bigint)[];
}

/** Serves GET /v1/pets with `page(url, n)` (n: 0 for the first GET /pets), recording each; any other request goes to the store. */
export function servedListing(page: (url: URL, n: number) => ServedPage): ServedListing {
  const served: ServedPage[] = [];
  const faults: Faults = (request) => {
    const url = new URL(request.url, 'http://service');
    if (request.method !== 'GET' || url.pathname !== '/v1/pets') return undefined;
    const answer = page(url, served.length);
    served.push(answer);
    const step: Step = { status: 200, json: answer.pets, headers: answer.next ? { link: `<${answer.next}>; rel="next"` } : {} };
    return step;
  };
  return { faults, served, servedIds: () => served.flatMap((p) => p.pets.map((pet) => pet.id)) };
}

/**
 * A next link that changes on every page (`?nonce=N`) over the same `pets`, forever; after `giveUpAfter` pages one without a link, so
 * that a client that never stops shows it by its count, not by a hang.
 */
export function nonceListing(pets: ListedPet[], giveUpAfter = 30): ServedListing {
  return servedListing((url, n) => {
    const next = n + 1 < giveUpAfter ? `/v1/pets?limit=${url.searchParams.get('limit') ?? 20}&nonce=${n + 2}` : undefined;
    return { pets, ...(next ? { next } : {}) };
  });
}

/**
 * An offset-paged store, newest first (`?offset=K`), whose pets `ids` (newest first) the test changes between pages: `beforePage(n,
 * ids)` runs before page n (0 for the first) is cut from them, as another writer would insert at the front.
 */
export function offsetListing(ids: (number | bigint)[], beforePage: (n: number, ids: (number | bigint)[]) => void): ServedListing {
  return servedListing((url, n) => {
    beforePage(n, ids);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const pets = ids.slice(offset, offset + limit).map(listedPet);
    const next = offset + limit < ids.length ? `/v1/pets?limit=${limit}&offset=${offset + limit}` : undefined;
    return { pets, ...(next ? { next } : {}) };
  });
}

/** `from`, `from - 1`, ... down to `to`: ids newest first. */
export const idsDown = (from: number, to: number): number[] => Array.from({ length: from - to + 1 }, (_, i) => from - i);
