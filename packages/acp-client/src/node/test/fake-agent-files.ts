import * as fs from 'fs';

/** Resolves once the file exists: a test releases or steers a scripted turn by creating it. */
export async function untilExists(file: string): Promise<void> {
    while (!fs.existsSync(file)) {
        await new Promise(resolve => setTimeout(resolve, 20));
    }
}
