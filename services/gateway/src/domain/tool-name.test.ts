import { describe, expect, it } from 'vitest';
import { advertisedToolName, MAX_TOOL_NAME_LENGTH } from './tool-name.ts';

describe('advertisedToolName', () => {
  it('is prefix_tool for ordinary names', () => {
    expect(advertisedToolName('research', 'list_yields')).toBe('research_list_yields');
  });
  it('depends only on (prefix, tool): the same inputs always give the same name', () => {
    expect(advertisedToolName('kb', 'count')).toBe(advertisedToolName('kb', 'count'));
  });
  it.each([
    ['pay', 'yieldfabric/list_assets'],
    ['ext', 'a'.repeat(80)],
    ['paylive', 'propose_swap_credit_for_cash_with_a_very_long_suffix_indeed'],
    ['ext', 'tool with spaces'],
  ])('stays within 48 characters and [A-Za-z0-9_-]: %s / %s', (prefix, tool) => {
    const name = advertisedToolName(prefix, tool);
    expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
    expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(name.startsWith(`${prefix}_`)).toBe(true);
  });
  it('two long names sharing a stem do not collide', () => {
    const stem = 'x'.repeat(60);
    expect(advertisedToolName('ext', `${stem}_a`)).not.toBe(advertisedToolName('ext', `${stem}_b`));
  });
  it('a replaced character cannot collide with the literal underscore spelling', () => {
    expect(advertisedToolName('pay', 'a/b')).not.toBe(advertisedToolName('pay', 'a_b'));
  });
});
