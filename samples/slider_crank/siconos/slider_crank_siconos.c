/* Slider-crank with a translational clearance, Siconos 4.4 plugin ABI. Same equations as
   plugins/slider_crank/src/model.rs (see samples/slider_crank/README.md). */
#include <math.h>
static const double l1 = 0.153, l2 = 0.306, m1 = 0.038, m2 = 0.038, m3 = 0.076;
static const double J1 = 7.4e-5, J2 = 5.9e-4, J3 = 2.7e-6, g = 9.81;
static const double a = 0.05, b = 0.025, c = 0.001;
#define K ((0.5 * m2 + m3) * l1 * l2)

void mass(unsigned int n, double *q, double *M, unsigned int nz, double *z) {
  double m12 = K * cos(q[0] - q[1]);
  M[0] = J1 + (0.25 * m1 + m2 + m3) * l1 * l1; M[1] = m12; M[2] = 0.0;
  M[3] = m12; M[4] = J2 + (0.25 * m2 + m3) * l2 * l2; M[5] = 0.0;
  M[6] = 0.0; M[7] = 0.0; M[8] = J3;
}
void fgyr(unsigned int n, double *q, double *v, double *f, unsigned int nz, double *z) {
  double ks = K * sin(q[0] - q[1]);
  f[0] = ks * v[1] * v[1]; f[1] = -ks * v[0] * v[0]; f[2] = 0.0;
}
void fgyr_q(unsigned int n, double *q, double *v, double *j, unsigned int nz, double *z) {
  double kc = K * cos(q[0] - q[1]);
  for (int i = 0; i < 9; i++) j[i] = 0.0;
  j[0] = kc * v[1] * v[1]; j[3] = -kc * v[1] * v[1];
  j[1] = -kc * v[0] * v[0]; j[4] = kc * v[0] * v[0];
}
void fgyr_v(unsigned int n, double *q, double *v, double *j, unsigned int nz, double *z) {
  double ks = K * sin(q[0] - q[1]);
  for (int i = 0; i < 9; i++) j[i] = 0.0;
  j[3] = 2.0 * ks * v[1]; j[1] = -2.0 * ks * v[0];
}
void fint(double t, unsigned int n, double *q, double *v, double *f, unsigned int nz, double *z) {
  f[0] = g * (0.5 * m1 + m2 + m3) * l1 * cos(q[0]);
  f[1] = g * (0.5 * m2 + m3) * l2 * cos(q[1]); f[2] = 0.0;
}
void fint_q(double t, unsigned int n, double *q, double *v, double *j, unsigned int nz, double *z) {
  for (int i = 0; i < 9; i++) j[i] = 0.0;
  j[0] = -g * (0.5 * m1 + m2 + m3) * l1 * sin(q[0]);
  j[4] = -g * (0.5 * m2 + m3) * l2 * sin(q[1]);
}
void fint_v(double t, unsigned int n, double *q, double *v, double *j, unsigned int nz, double *z) {
  for (int i = 0; i < 9; i++) j[i] = 0.0;
}
static double gap(const double *q, double sx, double sy) {
  double Y = l1 * sin(q[0]) + l2 * sin(q[1]) + sx * a * sin(q[2]) + sy * b * cos(q[2]);
  return (b + c) - sy * Y;
}
static void grad(const double *q, double sx, double sy, double *W) {
  W[0] = -sy * l1 * cos(q[0]); W[1] = -sy * l2 * cos(q[1]);
  W[2] = -sy * (sx * a * cos(q[2]) - sy * b * sin(q[2]));
}
#define CORNER(N, SX, SY) \
  void g##N(unsigned int n, double *q, unsigned int m, double *y, unsigned int nz, double *z) { y[0] = gap(q, SX, SY); } \
  void W##N(unsigned int n, double *q, unsigned int m, double *W, unsigned int nz, double *z) { grad(q, SX, SY, W); }
CORNER(1, -1.0, 1.0)
CORNER(2, 1.0, 1.0)
CORNER(3, -1.0, -1.0)
CORNER(4, 1.0, -1.0)
