import { UserGameType } from '@reskin/contract';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A budget as US dollars, e.g. $1,250.00. */
export function formatBudget(amount: number): string {
  return usd.format(amount);
}

/** The job type's name (SPEC §1). */
export function jobTypeName(userGameTypeId: number): string {
  if (userGameTypeId === UserGameType.ReSkin) return 'ReSkin';
  if (userGameTypeId === UserGameType.SoundReplace) return 'Sound Replace';
  return 'Unknown';
}

export const jobTypeOptions = [
  { id: UserGameType.ReSkin, label: 'ReSkin' },
  { id: UserGameType.SoundReplace, label: 'Sound Replace' },
] as const;
