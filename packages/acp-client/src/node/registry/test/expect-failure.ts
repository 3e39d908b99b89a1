import { expect } from 'chai';

export function escapeRegExp(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Awaits a promise that must reject, and checks the sentence the user would read. */
export async function expectFailure(promise: Promise<unknown>, expected: string | RegExp): Promise<Error> {
    const error = await promise.then(() => undefined, (reason: Error) => reason);
    expect(error, 'it should have failed').to.be.instanceOf(Error);
    if (typeof expected === 'string') {
        expect(error!.message).to.include(expected);
    } else {
        expect(error!.message).to.match(expected);
    }
    return error!;
}
