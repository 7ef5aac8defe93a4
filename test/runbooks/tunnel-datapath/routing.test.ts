import { describe, expect, it } from 'vitest';
import { describeTunnel, parseRouting } from '../../../runbooks/tunnel-datapath/routing.ts';

describe('parseRouting', () => {
  it('reads routing-mode, tunnel-protocol and tunnel-port (1.14+)', () => {
    expect(
      parseRouting({ 'routing-mode': 'tunnel', 'tunnel-protocol': 'geneve', 'tunnel-port': '6082' }),
    ).toEqual({
      mode: 'tunnel',
      protocol: 'geneve',
      port: 6082,
    });
  });

  it('defaults the port per protocol, also for tunnel-port 0', () => {
    expect(parseRouting({ 'routing-mode': 'tunnel', 'tunnel-protocol': 'vxlan' })).toMatchObject({
      port: 8472,
    });
    expect(
      parseRouting({ 'routing-mode': 'tunnel', 'tunnel-protocol': 'geneve', 'tunnel-port': '0' }),
    ).toMatchObject({
      port: 6081,
    });
  });

  it('reads native routing', () => {
    expect(parseRouting({ 'routing-mode': 'native', 'tunnel-protocol': 'vxlan' })).toEqual({
      mode: 'native',
      reason: 'routing-mode=native',
    });
  });

  it('reads the single tunnel key of releases before 1.14', () => {
    expect(parseRouting({ tunnel: 'vxlan', 'tunnel-port': '8223' })).toEqual({
      mode: 'tunnel',
      protocol: 'vxlan',
      port: 8223,
    });
    expect(parseRouting({ tunnel: 'geneve' })).toEqual({ mode: 'tunnel', protocol: 'geneve', port: 6081 });
    expect(parseRouting({ tunnel: 'disabled' })).toEqual({ mode: 'native', reason: 'tunnel=disabled' });
  });

  it('routes natively in ENI mode unless a key says otherwise', () => {
    expect(parseRouting({ ipam: 'eni' })).toMatchObject({ mode: 'native' });
    expect(parseRouting({ ipam: 'eni', tunnel: 'vxlan' })).toMatchObject({
      mode: 'tunnel',
      protocol: 'vxlan',
    });
  });

  it("falls back to Cilium's default, a VXLAN tunnel", () => {
    expect(parseRouting({})).toEqual({ mode: 'tunnel', protocol: 'vxlan', port: 8472 });
    expect(parseRouting({ ipam: 'cluster-pool' })).toEqual({ mode: 'tunnel', protocol: 'vxlan', port: 8472 });
  });

  it('rejects values Cilium does not know, naming the key', () => {
    expect(() => parseRouting({ 'routing-mode': 'overlay' })).toThrow(
      'cilium-config routing-mode is "overlay"',
    );
    expect(() => parseRouting({ tunnel: 'gre' })).toThrow('cilium-config tunnel is "gre"');
    expect(() => parseRouting({ 'tunnel-protocol': 'gre' })).toThrow(
      'cilium-config tunnel-protocol is "gre"',
    );
    expect(() => parseRouting({ 'tunnel-port': '70000' })).toThrow('cilium-config tunnel-port is "70000"');
    expect(() => parseRouting({ 'tunnel-port': 'x' })).toThrow('tunnel-port');
  });
});

describe('describeTunnel', () => {
  it('names the port and protocol', () => {
    expect(describeTunnel({ mode: 'tunnel', protocol: 'vxlan', port: 8472 })).toBe('udp/8472 (VXLAN)');
    expect(describeTunnel({ mode: 'tunnel', protocol: 'geneve', port: 6081 })).toBe('udp/6081 (Geneve)');
  });
});
