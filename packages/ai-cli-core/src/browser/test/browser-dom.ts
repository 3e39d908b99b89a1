import { enableJSDOM } from '@theia/core/lib/browser/test/jsdom';
import { FrontendApplicationConfigProvider } from '@theia/core/lib/browser/frontend-application-config-provider';

/**
 * A jsdom window with what Theia's browser modules expect when they load (`DragEvent`, which jsdom
 * lacks, and the application's configuration), for specs of browser code that run in Node. Enable
 * it before importing the code under test and while the specs run; the result disables it again.
 */
export function enableBrowserDom(): () => void {
    const disableJSDOM = enableJSDOM();
    const scope = globalThis as { DragEvent?: unknown; window?: { MouseEvent: new (type: string) => object } };
    const addedDragEvent = scope.DragEvent === undefined;
    if (addedDragEvent) {
        scope.DragEvent = class DragEvent extends scope.window!.MouseEvent { };
    }
    try {
        FrontendApplicationConfigProvider.get();
    } catch {
        // Set once per process: Theia refuses a second configuration.
        FrontendApplicationConfigProvider.set({});
    }
    return () => {
        if (addedDragEvent) {
            delete scope.DragEvent;
        }
        disableJSDOM();
    };
}
