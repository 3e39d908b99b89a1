import type * as Sdk from '@agentclientprotocol/sdk';

let loaded: typeof Sdk | undefined;

/**
 * The ACP SDK, loaded when the first agent starts: requiring it takes about 85 ms on the bench machine
 * (the whole protocol's schemas are built on load), and a backend that never starts an agent need not pay it.
 */
export function acpSdk(): typeof Sdk {
    return loaded ??= require('@agentclientprotocol/sdk') as typeof Sdk;
}
