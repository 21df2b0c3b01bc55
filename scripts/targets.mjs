// What the build knows about the machines it builds executables for
// (scripts/build-standalone.mjs, scripts/build-deb.mjs): their CPU
// architectures, and how this machine runs and strips a binary of another.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Linux architectures built, by Node.js's name (`process.arch`): the GNU
 * triplet of their Debian cross toolchain (/usr/<triplet> holds the
 * libraries qemu-user needs), qemu-user's name for the CPU, and Debian's
 * name for the architecture.
 */
export const ARCHITECTURES = {
  x64: { triplet: 'x86_64-linux-gnu', qemu: 'x86_64', deb: 'amd64' },
  arm64: { triplet: 'aarch64-linux-gnu', qemu: 'aarch64', deb: 'arm64' },
};

/** This machine, as `<platform>-<arch>` (`linux-x64`). */
export const HOST = `${process.platform}-${process.arch}`;

/** The pinned Node.js version: .nvmrc, which scripts/pinned-node's optional `node` must match. Throws when they differ. */
export function pinnedNode(root) {
  const nvmrc = readFileSync(join(root, '.nvmrc'), 'utf8').trim();
  const { optionalDependencies } = JSON.parse(readFileSync(join(root, 'scripts', 'pinned-node', 'package.json'), 'utf8'));
  if (optionalDependencies.node !== nvmrc) {
    throw new Error(`.nvmrc says ${nvmrc}, scripts/pinned-node/package.json's node is ${optionalDependencies.node}: make them one`);
  }
  return nvmrc;
}

/**
 * The command line that runs `binary`, a Linux executable for `target`
 * (`linux-arm64`), on this machine: the binary itself on a machine of that
 * architecture, else under qemu-user with the cross libraries of Debian's
 * libc6-<arch>-cross and libstdc++6-<arch>-cross.
 */
export function runOn(target, binary) {
  if (target === HOST) return [binary];
  const { qemu, triplet } = ARCHITECTURES[target.split('-')[1]];
  return [`qemu-${qemu}-static`, '-L', `/usr/${triplet}`, binary];
}

/** The tools for a binary of `target`: its strip, and hints naming the Debian packages that provide them. */
export function toolFor(target) {
  const arch = target.split('-')[1];
  const { triplet, qemu, deb } = ARCHITECTURES[arch];
  const native = target === HOST;
  return {
    strip: native ? 'strip' : `${triplet}-strip`,
    stripHint: `Debian, Ubuntu: apt-get install ${native ? 'binutils' : `binutils-${triplet}`}`,
    qemuHint: `Debian, Ubuntu: apt-get install qemu-user-static libc6-${deb}-cross libstdc++6-${deb}-cross (qemu-${qemu}-static)`,
  };
}
