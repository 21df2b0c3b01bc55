#!/bin/sh
# npm's script shell for CI's run on another Node: npm puts node_modules/.bin,
# which holds the pinned Node, first on PATH for every script (and for npx);
# this shell puts the folder PETSTORE_CI_NODE_BIN before it. Used through
# npm_config_script_shell, which nested `npm run` calls inherit.
PATH="$PETSTORE_CI_NODE_BIN:$PATH"
export PATH
exec /bin/sh "$@"
