import { describe, expect, it } from 'vitest';
import { findPlaywright, loadPlaywright } from './playwright-driver.js';

describe('playwright-core as an optional peer', () => {
  it('is found without being loaded when it is installed', async () => {
    expect(findPlaywright()).toBeUndefined();
  });

  it('loads on first use', async () => {
    const { chromium } = await loadPlaywright();
    expect(typeof chromium.launch).toBe('function');
  });
});
