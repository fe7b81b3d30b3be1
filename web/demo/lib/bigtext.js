// A deterministic large markdown document for responsiveness checks: the given texts repeated
// under numbered "# Part n" headers, cut to targetChars UTF-16 units. Pure (used by the page and
// by tests/browser/chunking.test.mjs in Node).
export function generateBigText(parts, targetChars = 1 << 20) {
  const out = [];
  let size = 0;
  for (let i = 0; size < targetChars; i++) {
    const block = `# Part ${i + 1}\n\n${parts[i % parts.length]}\n\n`;
    out.push(block);
    size += block.length;
  }
  return out.join('').slice(0, targetChars);
}
