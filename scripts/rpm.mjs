// The parts of the RPM package (scripts/build-rpm.mjs) that are text: its
// file name, its architecture and its spec.

/** The package's release: its first build of package.json's version. A change to the packaging alone raises it. */
export const RELEASE = '1';

/** RPM's name of the CPU architecture of a target (`linux-arm64` → `aarch64`). */
export function rpmArch(target) {
  const arch = { 'linux-x64': 'x86_64', 'linux-arm64': 'aarch64' }[target];
  if (!arch) throw new Error(`no RPM architecture for ${target}`);
  return arch;
}

/** `petstore-<version>-<release>.<arch>.rpm`, as rpmbuild names it. */
export const rpmFileName = (version, arch) => `petstore-${version}-${RELEASE}.${arch}.rpm`;

/** The directories the package makes and owns: the completion folders of shells it does not require, and its licence folder. */
export const OWNED_DIRECTORIES = [
  '/usr/share/bash-completion',
  '/usr/share/bash-completion/completions',
  '/usr/share/zsh',
  '/usr/share/zsh/site-functions',
  '/usr/share/fish',
  '/usr/share/fish/vendor_completions.d',
  '/usr/share/licenses/petstore',
];

/** The files the package installs. */
export const FILES = [
  '/usr/bin/petstore',
  '/usr/share/man/man1/petstore.1.gz',
  '/usr/share/bash-completion/completions/petstore',
  '/usr/share/zsh/site-functions/_petstore',
  '/usr/share/fish/vendor_completions.d/petstore.fish',
];

/** The licence files, under /usr/share/licenses/petstore/ (%license). */
export const LICENCE_FILES = ['LICENSE', 'NODEJS-LICENSE', 'THIRD-PARTY-NOTICES.txt'];

/**
 * The rpmlint filters, written beside the package (dist/petstore.rpmlintrc),
 * where rpmlint reads them when it checks one package of that folder: the
 * errors that cannot apply to a build in a clone, each after its reason. The
 * warnings that stay, and why, are in docs/install.md.
 */
export const RPMLINTRC = `# rpmlint reads this file for a package of this folder (petstore's RPM package,
# scripts/build-rpm.mjs).
# A package is signed where it is published, with the publisher's key
# (rpm --addsign, or the repository's signing service); a build in a clone has
# no key to sign with, and a key of its own would prove nothing.
addFilter("no-signature")
`;

/** `date` as a %changelog entry's date: "Fri Nov 27 2026". */
const changelogDate = (date) =>
  date.toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) .*$/, (_, day, dom, month, year) => `${day} ${month} ${dom} ${year}`);

/**
 * The spec for package.json `pkg` (name, version, description, license,
 * homepage, author), the executable carrying Node.js `node`, dated `date`,
 * whose files are laid out under `stage` as installed: %install copies them,
 * and nothing is compiled, stripped or compressed by rpmbuild.
 */
export function specFile({ pkg, node, date, stage }) {
  return `# The spec of petstore's RPM package, written by scripts/build-rpm.mjs.
Name:           ${pkg.name}
Version:        ${pkg.version}
Release:        ${RELEASE}
Summary:        ${pkg.description}
License:        ${pkg.license}
URL:            ${pkg.homepage}
Packager:       ${pkg.author}
# Fedora no longer reads Group; RHEL 7 and Amazon Linux 2 still show it.
Group:          Applications/Internet

# The files come built: /usr/bin/petstore is Node.js with petstore injected,
# stripped before the injection, as stripping it after would break it. So
# rpmbuild's post-install steps (strip, man page compression) do not run, and
# there is no debug package or build-id link to make.
%global debug_package %{nil}
%global __os_install_post %{nil}
%global _build_id_links none
# xz: read by every rpm in use (Amazon Linux 2's 4.11 has no zstd).
%global _binary_payload w6.xzdio

%description
petstore lists the pet store service's animals, adds one or thousands from a
file, looks one up, and sends any request under the service's base URL. At a
terminal it prints tables; piped, tab-separated rows; with --json, exactly
the service's JSON. Its exit codes are stable, for scripts.

This package holds the standalone executable, which carries its own Node.js
${node}, with its manual page and bash, zsh and fish completion.

%install
cp -a ${stage}/. %{buildroot}/

%files
%defattr(-,root,root,-)
${FILES.join('\n')}
${OWNED_DIRECTORIES.map((dir) => `%dir ${dir}`).join('\n')}
${LICENCE_FILES.map((file) => `%license /usr/share/licenses/petstore/${file}`).join('\n')}

%changelog
* ${changelogDate(date)} ${pkg.author} - ${pkg.version}-${RELEASE}
- petstore ${pkg.version}: the standalone executable, carrying Node.js ${node}.
`;
}
