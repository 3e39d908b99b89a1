import * as path from 'path';
import { launchBrowser, waitForWorkbench } from '../hosts/browser';
import { PodmanContainer } from '../hosts/podman-container';
import { REPO_ROOT, TheiaBackend } from '../hosts/theia-backend';
import { until } from '../support/processes';
import { Sandbox } from '../support/sandbox';
import { buildImage, IMAGE, IMAGE_REF } from '../deploy/container-image';
import { Figure, now, round, summarize } from './stats';

const STATUS_ITEM = '#status-bar-ai-cli-ide-companion\\.status';
/** The production app scripts/image.sh builds and puts into the image, as built on this machine. */
const IMAGE_APP_MAIN = path.join(REPO_ROOT, 'build', 'image', 'app', 'lib', 'backend', 'main.js');

/** Navigation of a fresh browser profile to `url` until the workbench is usable with the companion's status item. */
async function openWorkbench(sandbox: Sandbox, url: string): Promise<void> {
    const context = await launchBrowser(sandbox);
    try {
        const page = await context.newPage();
        await page.goto(url);
        await waitForWorkbench(page);
        await page.locator(STATUS_ITEM).waitFor({ timeout: 30000 });
    } finally {
        await context.close();
    }
}

async function containerStart(sandbox: Sandbox): Promise<number> {
    const t0 = now();
    const container = await PodmanContainer.start(IMAGE_REF, { publish: IMAGE.port });
    try {
        const url = await container.url(IMAGE.port);
        await until(async () => (await fetch(url).catch(() => undefined))?.ok, `the image's IDE to answer on ${url}`, 60_000, 20);
        await openWorkbench(sandbox, url);
        return now() - t0;
    } finally {
        await container.dispose();
    }
}

async function hostStart(sandbox: Sandbox, workspace: string): Promise<number> {
    const backend = new TheiaBackend(sandbox, workspace, IMAGE_APP_MAIN);
    const t0 = now();
    try {
        await backend.start();
        await openWorkbench(sandbox, backend.url);
        return now() - t0;
    } finally {
        await backend.stop();
    }
}

/**
 * The image's cold start, `podman run` of a new container until the workbench is usable in a browser,
 * against the same production app started as a process on this machine: what the container costs.
 * The two alternate, so neither always runs on the caches the other warmed.
 */
export async function benchImageStart(options: { quick: boolean; sandbox: Sandbox; workspace: string }): Promise<Figure[]> {
    const built = await buildImage();
    const rounds = options.quick ? 1 : 6;
    const inContainer: number[] = [];
    const onHost: number[] = [];
    for (let round = 0; round < rounds; round++) {
        if (round % 2 === 0) {
            inContainer.push(await containerStart(options.sandbox));
            onHost.push(await hostStart(options.sandbox, options.workspace));
        } else {
            onHost.push(await hostStart(options.sandbox, options.workspace));
            inContainer.push(await containerStart(options.sandbox));
        }
    }
    const measured = summarize(inContainer);
    const baseline = summarize(onHost);
    return [{
        id: 'image-cold-start',
        title: 'Image cold start (podman run of a new container → workbench usable in the browser)',
        unit: 'ms',
        measured,
        baselineName: 'the same production app started on the host (process start → workbench usable)',
        baseline,
        notes: { 'image size (MB)': built.megabytes, 'container cost (ms)': round(measured.median - baseline.median, 0) }
    }];
}
