/** Deterministic contract-like text for benchmarks (a seeded PRNG, so runs compare like for like). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PARTIES = ['Acme Holdings Inc.', 'Borealis Capital LLC', 'Cobalt Bank, N.A.', 'Delta Trust Company', 'Evergreen Partners L.P.', 'Fulcrum Energy Corporation'];
const TERMS = ['Borrower', 'Administrative Agent', 'Lender', 'Guarantor', 'Collateral', 'Applicable Margin', 'Interest Period', 'Maturity Date'];
const CLAUSES = [
  'The {T} shall pay interest on the unpaid principal amount of each Loan at a rate per annum equal to the Base Rate plus the Applicable Margin of {P}.',
  'Each {T} represents and warrants that it is duly organized under the laws of the State of Delaware and has all requisite power.',
  'Upon the occurrence of an Event of Default, the Administrative Agent may declare all Obligations of the {T} immediately due and payable.',
  'The aggregate Commitments shall not exceed {M} and may be reduced as provided in Section {S}.',
  'Notices to {O} shall be delivered to its address set forth on Schedule 10.02, with a copy to counsel.',
  'The {T} shall deliver financial statements within 90 days after the end of each fiscal year, certified by independent accountants.',
  'This Agreement is dated as of {D} and shall be governed by the laws of the State of New York.',
];

export function generateContract(i: number, paragraphs = 20): string {
  const rnd = seededRandom(i + 1);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const out = [`CREDIT AGREEMENT No. ${i}`, '', `"${pick(TERMS)}" means ${pick(PARTIES)}, a Delaware corporation.`];
  for (let p = 0; p < paragraphs; p++) {
    const sentences = 2 + Math.floor(rnd() * 3);
    const para: string[] = [`Section ${1 + Math.floor(rnd() * 9)}.${1 + Math.floor(rnd() * 20)}.`];
    for (let s = 0; s < sentences; s++) {
      para.push(
        pick(CLAUSES)
          .replace('{T}', pick(TERMS))
          .replace('{P}', `${(rnd() * 4).toFixed(2)}%`)
          .replace('{M}', `$${Math.floor(rnd() * 900 + 100)},000,000`)
          .replace('{S}', `${1 + Math.floor(rnd() * 9)}.${1 + Math.floor(rnd() * 9)}`)
          .replace('{O}', pick(PARTIES))
          .replace('{D}', `March ${1 + Math.floor(rnd() * 28)}, 2020`),
      );
    }
    out.push('', para.join(' '));
  }
  return out.join('\n');
}

/** A real text replicated "with variations": renumbered title and a shuffled tail, so dedupe does not collapse copies. */
export function varyText(text: string, i: number): string {
  const rnd = seededRandom(i + 7);
  const paras = text.split(/\n\s*\n/);
  const cut = Math.floor(rnd() * Math.max(1, paras.length - 1));
  return [`COPY ${i}`, ...paras.slice(cut), ...paras.slice(0, cut)].join('\n\n');
}
