const BOM = '\uFEFF';

/**
 * The text to report for an accepted proposal. Monaco normalises a model to one line ending and
 * drops a leading BOM, so an unedited proposal with mixed line endings or a BOM would come back
 * changed: when the editor's text equals the proposal up to those two things, the proposal is
 * returned byte for byte. An edited text keeps the editor's line ending and gets the BOM back.
 */
export function acceptedText(proposal: string, editorText: string): string {
    const canonical = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n|\r/g, '\n');
    if (canonical(editorText) === canonical(proposal)) {
        return proposal;
    }
    return proposal.startsWith(BOM) && !editorText.startsWith(BOM) ? BOM + editorText : editorText;
}
