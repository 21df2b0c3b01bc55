// The parts of the Debian package (scripts/build-deb.mjs) that are text:
// its Depends, its machine-readable copyright file and its lintian overrides.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Debian package of each shared library an executable may need (Node.js needs these). */
const LIBRARIES = {
  'libc.so.6': 'libc6',
  'libm.so.6': 'libc6',
  'libdl.so.2': 'libc6',
  'libpthread.so.0': 'libc6',
  'librt.so.1': 'libc6',
  'ld-linux-x86-64.so.2': 'libc6',
  'ld-linux-aarch64.so.1': 'libc6',
  'libstdc++.so.6': 'libstdc++6',
  'libgcc_s.so.1': 'libgcc-s1',
};

const DPKG_INFO = '/var/lib/dpkg/info';

/** -1, 0 or 1 as dotted version `a` is older than, the same as or newer than `b` (numbers only: 2.28, 5.2, 4.2). */
const compareVersions = (a, b) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  return 0;
};

/**
 * The Debian version of `debianPackage` that introduced the symbol version
 * `tag` (GLIBCXX_3.4.21 → 5.2), from a dpkg symbols file of that package on
 * this machine (any architecture's: the tags are the same). Throws when there
 * is none, or it does not name the tag.
 */
function introducedIn(debianPackage, tag, info = DPKG_INFO) {
  const file = existsSync(info) ? readdirSync(info).find((f) => f.startsWith(`${debianPackage}:`) && f.endsWith('.symbols')) : undefined;
  if (!file) throw new Error(`no dpkg symbols file of ${debianPackage} in ${info}: build the package on Debian or Ubuntu`);
  const line = readFileSync(join(info, file), 'utf8')
    .split('\n')
    .find((l) => l.startsWith(` ${tag}@${tag} `));
  if (!line) throw new Error(`${join(info, file)} does not name the symbol version ${tag}`);
  return line.trim().split(/\s+/)[1];
}

/**
 * The Depends field for an executable, from `readelf --wide --dynamic
 * --version-info` of it: for each Debian package whose libraries it needs
 * (NEEDED), `package (>= version)` with the version that introduced the newest
 * symbol version it uses of them. Throws on a library that is not in the list
 * above, or on a symbol version that this machine's dpkg symbols files do not
 * name.
 */
export function debianDepends(readelf, info = DPKG_INFO) {
  const needed = [...readelf.matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1]);
  const minimum = new Map();
  for (const library of needed) {
    const debianPackage = LIBRARIES[library];
    if (!debianPackage) throw new Error(`the executable needs ${library}, whose Debian package scripts/debian.mjs does not know`);
    if (!minimum.has(debianPackage)) minimum.set(debianPackage, '0');
  }
  let file;
  for (const line of readelf.split('\n')) {
    const from = line.match(/ File: (\S+)\s+Cnt:/);
    if (from) file = from[1];
    const tag = line.match(/ Name: (\S+)\s+Flags:/)?.[1];
    if (!tag || !file || !LIBRARIES[file]) continue;
    const debianPackage = LIBRARIES[file];
    const version = introducedIn(debianPackage, tag, info);
    if (compareVersions(version, minimum.get(debianPackage) ?? '0') > 0) minimum.set(debianPackage, version);
  }
  return [...minimum]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, version]) => (version === '0' ? name : `${name} (>= ${version})`))
    .join(', ');
}

/** `text` as the continuation lines of a deb822 field: each line indented one space, empty lines as " .". */
const continuation = (text) =>
  text
    .replace(/\r\n?/g, '\n')
    .trim()
    .split('\n')
    .map((line) => (line.trim() === '' ? ' .' : ` ${line.trimEnd()}`))
    .join('\n');

/** The terms of the Apache License 2.0, from its title to its last line (the appendix, with its short notice, stays). */
const APACHE_2 = /^[ \t]*Apache License[ \t]*\n[ \t]*Version 2\.0, January 2004\n[\s\S]*?END OF TERMS AND CONDITIONS[ \t]*$/gm;

/** `text` with each full Apache License 2.0 in it replaced by where Debian keeps it, as Debian's policy asks (12.5). */
export const withCommonLicences = (text) =>
  text.replace(APACHE_2, 'Apache License, Version 2.0: on Debian systems, its full text is in /usr/share/common-licenses/Apache-2.0.');

/**
 * The machine-readable copyright file (DEP-5,
 * https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/):
 * petstore's `licence` (LICENSE, MIT) for every file, and for usr/bin/petstore
 * also Node.js's (`nodeLicence`, of version `node`) and the bundle's
 * third-party notice (`thirdParty`, dist/THIRD-PARTY-NOTICES.txt), each a
 * License paragraph with its full text, except that the Apache License 2.0
 * points to Debian's common licences (withCommonLicences).
 */
export function copyrightFile({ licence, node, nodeLicence, thirdParty, homepage }) {
  const holder = licence.match(/^Copyright \(c\) (.+)$/m)?.[1];
  if (!holder) throw new Error('LICENSE has no "Copyright (c) ..." line');
  const paragraphs = [
    [
      'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/',
      'Upstream-Name: petstore',
      `Source: ${homepage}`,
      'Comment: usr/bin/petstore is Node.js with petstore inside it (a single',
      ` executable application): Node.js ${node}, under its licence (License:`,
      " Node.js, with the notices of what Node.js includes), and petstore's bundle,",
      ' which holds the packages, and the libraries compiled into them, named',
      ' with their licence texts in License: petstore-third-party.',
    ].join('\n'),
    ['Files: *', `Copyright: ${holder}`, 'License: MIT'].join('\n'),
    [
      'Files: usr/bin/petstore',
      `Copyright: ${holder}`,
      ' Node.js contributors, Joyent, Inc. and the other holders named in License: Node.js',
      ' the holders named in License: petstore-third-party',
      'License: MIT and Node.js and petstore-third-party',
    ].join('\n'),
    `License: MIT\n${continuation(licence)}`,
    `License: Node.js\n${continuation(withCommonLicences(nodeLicence))}`,
    `License: petstore-third-party\n${continuation(withCommonLicences(thirdParty))}`,
  ];
  return `${paragraphs.join('\n\n')}\n`;
}

/**
 * The package's lintian overrides (usr/share/lintian/overrides/petstore):
 * tags that cannot apply to an executable carrying its own Node.js, each
 * after a comment with its reason.
 */
export const LINTIAN_OVERRIDES = `# Node.js links its own zlib into its binary, which petstore's executable is:
# a system zlib cannot replace it without rebuilding Node.js.
petstore: embedded-library zlib [usr/bin/petstore]
# Node.js's release binaries are built without PIE; petstore's executable is
# such a binary with petstore injected, not compiled here.
petstore: hardening-no-pie [usr/bin/petstore]
# The FSF's old address is inside licence texts that Node.js ships and that
# the copyright file quotes unchanged.
petstore: old-fsf-address-in-copyright-file
# The version is petstore's own (package.json), with no Debian revision, yet
# the file records the package, as changelog.Debian.gz does; petstore has no
# separate upstream changelog to ship as changelog.gz.
petstore: wrong-name-for-changelog-of-native-package [usr/share/doc/petstore/changelog.Debian.gz]
`;
