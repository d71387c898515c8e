/** The benchmark's realistic queries, shared by main.ts (timings) and explain.ts (plans). */
export const SEARCH_QUERIES = ['interest rate applicable margin', 'event of default', 'financial statements fiscal year', 'governed by the laws of New York', 'commitments reduced', 'notices address schedule'];
export const COUNT_QUERIES: Array<[string, string]> = [['Borrower', 'exact'], ['Applicable Margin', 'exact'], ['event of default', 'phrase'], ['guarantor', 'phrase'], ['2.5', 'exact'], ['Delaware', 'exact']];
