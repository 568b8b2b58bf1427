import { describe, expect, it } from 'vitest';
import { formatBudget, jobTypeName } from './format';

describe('formatBudget', () => {
  it('shows US dollars with cents and grouping', () => {
    expect(formatBudget(1250)).toBe('$1,250.00');
    expect(formatBudget(0)).toBe('$0.00');
  });
});

describe('jobTypeName', () => {
  it('names the two job types', () => {
    expect(jobTypeName(1)).toBe('ReSkin');
    expect(jobTypeName(2)).toBe('Sound Replace');
  });
});
