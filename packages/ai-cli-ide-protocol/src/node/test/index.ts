export * from './temporary-home';
// TRANSITION: importers move to @theia-cli-companion/safe-files/lib/node/test.
export { expectStillServing, HostileFiles, within } from '@theia-cli-companion/safe-files/lib/node/test';
