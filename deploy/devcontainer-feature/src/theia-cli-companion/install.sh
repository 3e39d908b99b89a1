#!/bin/sh
# Installs the AI coding CLIs the CLI Companion works with, each at a pinned version, as a dev container
# feature (run as root while the container image is built, options as upper-cased variables) or by hand:
#   CLIS=gemini,claude bash install.sh
# npm's own configuration is honoured (NPM_CONFIG_REGISTRY, .npmrc): a mirror set there is the one used.
set -eu

# The defaults of devcontainer-feature.json, for a run by hand; a feature build always sets every option.
: "${CLIS:=all}"
: "${GEMINIVERSION:=0.61.0}"
: "${QWENVERSION:=0.24.4}"
: "${CLAUDEVERSION:=2.1.332}"
: "${CLAUDEAGENTACPVERSION:=0.101.0}"
: "${CODEXACPVERSION:=2.6.0}"
: "${OPENCODEVERSION:=1.18.33}"
: "${COPILOTVERSION:=1.0.102}"

KNOWN_CLIS="gemini qwen claude claude-agent-acp codex-acp opencode copilot"
# Their postinstall puts the native binary in place of a placeholder. npm 11 runs unreviewed install scripts with a
# notice but refuses them where strict-allow-scripts is set: allowed here by name, they run under either policy.
PACKAGES_WITH_NEEDED_SCRIPTS="@anthropic-ai/claude-code,opencode-ai"
MIN_NODE_MAJOR=20

fail() {
    echo "theia-cli-companion feature: $*" >&2
    exit 1
}

# The npm package and the version option of each CLI; the CLI's command is its name.
package_of() {
    case "$1" in
        gemini) echo "@google/gemini-cli@${GEMINIVERSION}" ;;
        qwen) echo "@qwen-code/qwen-code@${QWENVERSION}" ;;
        claude) echo "@anthropic-ai/claude-code@${CLAUDEVERSION}" ;;
        claude-agent-acp) echo "@agentclientprotocol/claude-agent-acp@${CLAUDEAGENTACPVERSION}" ;;
        codex-acp) echo "@agentclientprotocol/codex-acp@${CODEXACPVERSION}" ;;
        opencode) echo "opencode-ai@${OPENCODEVERSION}" ;;
        copilot) echo "@github/copilot@${COPILOTVERSION}" ;;
        *) return 1 ;;
    esac
}

require_node() {
    command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 \
        || fail "node and npm are needed (Node ${MIN_NODE_MAJOR} or newer): add the feature ghcr.io/devcontainers/features/node, or use an image with Node."
    major=$(node -p 'process.versions.node.split(".")[0]')
    [ "$major" -ge "$MIN_NODE_MAJOR" ] \
        || fail "Node ${MIN_NODE_MAJOR} or newer is needed, this is $(node --version): set the node feature's version to ${MIN_NODE_MAJOR} or later."
}

# The CLIs asked for, one a line, each checked against the known names before anything is installed.
selected_clis() {
    list=$(echo "$CLIS" | tr ',' ' ')
    [ "$list" = "all" ] && list=$KNOWN_CLIS
    [ -n "$(echo "$list" | tr -d ' ')" ] || fail "the option clis is empty: name at least one of: ${KNOWN_CLIS} (or all)."
    for cli in $list; do
        package_of "$cli" >/dev/null || fail "unknown CLI '${cli}' in clis='${CLIS}': the known ones are ${KNOWN_CLIS} (or all)."
        echo "$cli"
    done
}

# Each installed CLI must start and answer --version, with the version asked for when one was pinned.
check_answers() {
    cli=$1
    spec=$(package_of "$cli")
    version=${spec##*@}
    answer=$("$cli" --version </dev/null 2>&1) || fail "'${cli} --version' failed after installing ${spec}: ${answer}"
    case "$version" in
        [0-9]*.[0-9]*.[0-9]*)
            case "$answer" in
                *"$version"*) ;;
                *) fail "'${cli} --version' answered '${answer}', not ${version}: another ${cli} comes first on PATH ($(command -v "$cli"))." ;;
            esac ;;
    esac
    echo "theia-cli-companion feature: ${cli} ${version} ok"
}

require_node
clis=$(selected_clis)
packages=""
for cli in $clis; do
    packages="$packages $(package_of "$cli")"
done
echo "theia-cli-companion feature: installing${packages}"
# shellcheck disable=SC2086 # one word per package
npm install -g --no-audit --no-fund --allow-scripts="$PACKAGES_WITH_NEEDED_SCRIPTS" $packages
for cli in $clis; do
    check_answers "$cli"
done
