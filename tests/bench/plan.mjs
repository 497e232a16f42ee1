// Drives the plan comparison (plan-page.mjs) in one page run and returns its figures.

import { freshPage } from './serve.mjs';

export const SIZES = [
  { size: 100, runs: 7 },
  { size: 1_000, runs: 7 },
  { size: 10_000, runs: 5 },
];

export async function measurePlan(browser, server, sizes = SIZES) {
  const { page, errors, close } = await freshPage(browser);
  try {
    await page.goto(`${server.origin}/page.html`);
    await page.waitForFunction(() => window.planBenchmarkReady, null, { timeout: 30_000 });
    const figures = await page.evaluate((plan) => window.planBenchmark(plan), sizes);
    if (errors.length) throw new Error(`the plan benchmark page failed: ${errors.join('; ')}`);
    return figures;
  } finally {
    await close();
  }
}
