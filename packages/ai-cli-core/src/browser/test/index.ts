// Test helpers for the companion's browser code in Node (jsdom): the DOM, and the diff review over
// test doubles of what only a browser has.
import { enableBrowserDom } from './browser-dom';
export * from './browser-dom';
export * from '@theia-cli-companion/ide-companion-server/lib/common/test';

// The testbed loads Theia's browser modules, which need the DOM while they load.
const disableDom = enableBrowserDom();
export * from './diff-review-testbed';
export * from './user-scope-testbed';
disableDom();
