#!/usr/bin/env node
// The peer of `petstore list --all --json` in bench/list-all.mjs: a plain
// node:http client that fetches GET /pets?limit=100 and follows Link
// rel="next" to the last page, writing the pages to stdout as one JSON array
// as they come (each page's text as sent: no checks, no exact ids); with
// `ndjson`, each page parsed and its items written one a line, as
// `list --all --format ndjson` writes them; with `tsv`, a pet's id, name,
// categoryId and status a line, as `list --all --format tsv` writes them.
//
//   node bench/http-pager.mjs <base-url> <key> [ndjson|tsv]
import http from 'node:http';

const [baseUrl, key, mode] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true });
const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };

function get(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve({ text: Buffer.concat(chunks).toString('utf8'), link: res.headers.link })
            : reject(new Error(`HTTP ${res.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

let url = new URL(`${baseUrl}/pets?limit=100`);
let first = true;
for (;;) {
  const { text, link } = await get(url);
  if (mode === 'ndjson' || mode === 'tsv') {
    let lines = '';
    const cell = (value) => (value === undefined || value === null ? '-' : String(value));
    for (const item of JSON.parse(text))
      lines +=
        mode === 'tsv'
          ? `${cell(item.id)}\t${cell(item.name)}\t${cell(item.categoryId)}\t${cell(item.status)}\n`
          : `${JSON.stringify(item)}\n`;
    if (!process.stdout.write(lines)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  } else {
    const items = text.trim().slice(1, -1);
    if (items && !process.stdout.write(`${first ? '[' : ','}${items}`))
      await new Promise((resolve) => process.stdout.once('drain', resolve));
    first &&= !items;
  }
  const next = /<([^>]*)>;\s*rel="next"/.exec(link ?? '');
  if (!next) break;
  url = new URL(next[1], url);
}
if (!mode) process.stdout.write(first ? '[]\n' : ']\n');
agent.destroy();
