# Random rolling friction-contact problems in the Siconos .dat format, solved by Siconos 4.4.
# Usage: /usr/bin/python3 generate.py SEED NC FILE.dat  (writes FILE.dat and FILE.siconos-r.txt)
import siconos.numerics as sn, numpy as np, sys
rng = np.random.default_rng(int(sys.argv[1]))
nc=int(sys.argv[2]); n=5*nc
A = rng.normal(size=(n,n)); W = A@A.T/n + 0.1*np.eye(n)
q = rng.normal(size=n); q[0::5] -= 1.0
mu = rng.uniform(0.1,1.0,nc); mur=rng.uniform(0.01,0.3,nc)
fn = sys.argv[3]
with open(fn,'w') as f:
    f.write("5\n%d\n0\n%d\n%d\n%d\t%d\n" % (nc, n, n, n, n))
    for i in range(n):
        f.write(" ".join("%.17g" % W[i,j] for j in range(n)) + "\n")
    f.write(" ".join("%.17g" % x for x in q)+"\n")
    f.write(" ".join("%.17g" % x for x in mu)+"\n")
    f.write(" ".join("%.17g" % x for x in mur)+"\n")
p = sn.rollingFrictionContact_new_from_filename(fn)
print(p.dimension, p.numberOfContacts, p.mu, p.mu_r)
so = sn.SolverOptions(sn.SICONOS_ROLLING_FRICTION_3D_NSGS)
so.dparam[0]=1e-12; so.iparam[0]=10000
r = np.zeros(n); u = np.zeros(n)
info = sn.rolling_fc3d_driver(p, r, u, so)
print('info', info, 'iter', so.iparam[1], 'err', so.dparam[1])
print(repr(r))
with open(fn.replace('.dat', '.siconos-r.txt'), 'w') as f:
    f.write("# Siconos 4.4 ROLLING_FRICTION_3D_NSGS, tol 1e-12: info %d, %d sweeps, error %.3e\n" % (info, so.iparam[1], so.dparam[1]))
    f.write(" ".join("%.17g" % x for x in r) + "\n")
