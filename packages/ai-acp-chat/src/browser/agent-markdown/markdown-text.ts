/**
 * Text that markdown shows as it is: line breaks as spaces, and escaped every character that can start
 * inline markdown (no link, autolink, HTML, entity, code span or emphasis can start) or, on a line of
 * its own, a heading, quote, list, rule or table; `.` and `)` only after leading digits (an ordered
 * list). For what an agent names in a sentence of ours that Theia renders as markdown (a question
 * about a tool call).
 */
export function markdownText(text: string): string {
    return text.replace(/[\r\n]+/g, ' ').trimStart()
        .replace(/[\\`*_{}[\]()<>#+\-=!|~&]/g, '\\$&')
        .replace(/^(\d+)([.)])/, '$1\\$2');
}
