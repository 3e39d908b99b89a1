import { CLI_FLAVOUR_PACKAGES, CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';

/** The command line a "Run" command types into its terminal; bad preference values fall back to the defaults. */
export function cliCommandLine(flavour: CliFlavourId, command: unknown, args: unknown): string[] {
    const name = typeof command === 'string' && command.trim() ? command.trim() : CLI_FLAVOUR_PACKAGES[flavour].command;
    const extra = Array.isArray(args) && args.every(arg => typeof arg === 'string') ? args as string[] : [];
    return [name, ...extra];
}
