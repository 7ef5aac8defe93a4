import { describe, expect, it } from 'vitest';
import { parseWatcherInterval, watcherConfig } from '../../../runbooks/unmanaged-pods/watcher-config.ts';

describe('parseWatcherInterval', () => {
  it.each([
    ['15', 15],
    ['0', 0],
    ['15s', 15],
    ['0s', 0],
    ['1m30s', 90],
    ['1h', 3600],
    ['1.5m', 90],
    ['500ms', 0.5],
    ['2000us', 0.002],
    ['+30s', 30],
    [' 15\n', 15],
  ])('reads %j as %d seconds', (text, seconds) => {
    expect(parseWatcherInterval(text)).toBeCloseTo(seconds, 9);
  });

  it('keeps the sign of a negative duration, for the caller to reject', () => {
    expect(parseWatcherInterval('-5s')).toBe(-5);
  });

  it.each(['', 's', '15x', '1.5', 'fifteen', '15 s', '1m 30s'])('rejects %j', (text) => {
    expect(parseWatcherInterval(text)).toBeUndefined();
  });
});

describe('watcherConfig', () => {
  it('fills in the operator defaults when the keys are absent', () => {
    const config = watcherConfig({});
    expect(config.interval).toMatchObject({ ok: true, seconds: 15, fromDefault: true });
    expect(config.selector).toMatchObject({ ok: true, text: 'k8s-app=kube-dns', fromDefault: true });
    if (!config.selector.ok) throw new Error('default selector must parse');
    expect(config.selector.matches({ 'k8s-app': 'kube-dns' })).toBe(true);
    expect(config.selector.matches({ app: 'web' })).toBe(false);
  });

  it('reads the watcher as off at 0', () => {
    expect(watcherConfig({ 'unmanaged-pod-watcher-interval': '0' }).interval).toMatchObject({
      ok: true,
      seconds: 0,
    });
  });

  it('treats an empty selector as every pod, as the operator does', () => {
    const { selector } = watcherConfig({ 'pod-restart-selector': '' });
    expect(selector).toMatchObject({ ok: true, text: '', fromDefault: false });
    if (selector.ok) expect(selector.matches({ app: 'anything' })).toBe(true);
  });

  it('matches the common "everything but aws-node" selector, which also matches unlabelled pods', () => {
    const { selector } = watcherConfig({ 'pod-restart-selector': 'app.kubernetes.io/name!=aws-node' });
    if (!selector.ok) throw new Error('selector must parse');
    expect(selector.matches({})).toBe(true);
    expect(selector.matches({ 'app.kubernetes.io/name': 'aws-node' })).toBe(false);
  });

  it('says what is wrong with an invalid interval or selector', () => {
    const config = watcherConfig({
      'unmanaged-pod-watcher-interval': 'soon',
      'pod-restart-selector': 'app in (',
    });
    expect(config.interval).toMatchObject({
      ok: false,
      problem: 'is neither whole seconds (15) nor a duration (15s)',
    });
    expect(config.selector).toMatchObject({ ok: false, text: 'app in (' });
    if (!config.selector.ok) expect(config.selector.problem).toMatch(/^is not a label selector: /);
    expect(watcherConfig({ 'unmanaged-pod-watcher-interval': '-15s' }).interval).toMatchObject({
      ok: false,
      problem: 'is negative',
    });
  });
});
