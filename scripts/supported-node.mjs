// The Node.js versions petstore runs on: those that every bundled package
// supports (read@6 and mute-stream@4 set the bounds). The npm package's
// `engines` (written into the packed package.json by scripts/pack-engines.mjs),
// scripts/check-node.mjs and CI's lowest Node (.ci/lowest-node) read it here;
// bin/petstore.js checks the same range in syntax every Node parses, and
// test/node-versions.test.ts holds them to each other.
export const SUPPORTED_NODE = '^22.22.2 || ^24.15.0 || >=26.0.0';
