! The ten problems of integrator-test-problems.md for ODEPACK LSODA: module lsoda_problems
! (setup: dimension, y0, tf, atol ratio, whether lsoda_testset.py passes Dfun) and the
! external subroutines fcn (RHS) and jac (full Jacobian) in LSODA's calling sequences.
! The RHS and Jacobian expressions follow lsoda_testset.py operation by operation (same
! order of floating-point operations), so LSODA takes the same steps as under odeint.

module lsoda_problems
  implicit none
  integer, parameter :: nprob = 10
  character(len=12), parameter :: names(nprob) = [character(len=12) :: &
       'vdp1', 'vdp1000', 'robertson', 'hires', 'pleiades', 'arenstorf', &
       'brusselator', 'bruss1d', 'orego', 'pendulum']
  integer, parameter :: nb = 100            ! bruss1d grid points
  integer :: pid = 0                        ! current problem (index into names)
  double precision :: vdp_mu = 1.0d0
  double precision, parameter :: ar_mu = 0.012277471d0
  double precision :: ar_mup                ! 1 - mu, computed at run time like Python
  double precision :: bc                    ! bruss1d diffusion constant (N+1)**2/50
  double precision :: pl_m(7)               ! Pleiades masses
contains

  ! Dimension, initial value, final time, atol ratio and whether the script passes Dfun.
  subroutine setup(p, n, y0, tf, ratio, hasjac)
    integer, intent(in) :: p
    integer, intent(out) :: n
    double precision, intent(out) :: y0(:), tf, ratio
    logical, intent(out) :: hasjac
    integer :: i
    double precision :: x
    double precision, parameter :: pi = 3.141592653589793d0   ! numpy.pi
    pid = p
    ratio = 1.0d0
    hasjac = .false.
    select case (trim(names(p)))
    case ('vdp1')
      vdp_mu = 1.0d0
      n = 2; y0(1:2) = [2.0d0, 0.0d0]; tf = 20.0d0; hasjac = .true.
    case ('vdp1000')
      vdp_mu = 1000.0d0
      n = 2; y0(1:2) = [2.0d0, 0.0d0]; tf = 3000.0d0; hasjac = .true.
    case ('robertson')
      n = 3; y0(1:3) = [1.0d0, 0.0d0, 0.0d0]; tf = 1.0d11; ratio = 1.0d-10; hasjac = .true.
    case ('hires')
      n = 8; y0(1:8) = [1.0d0, 0.0d0, 0.0d0, 0.0d0, 0.0d0, 0.0d0, 0.0d0, 0.0057d0]
      tf = 321.8122d0; ratio = 1.0d-4; hasjac = .true.
    case ('pleiades')
      n = 28
      y0(1:28) = [3.0d0, 3.0d0, -1.0d0, -3.0d0, 2.0d0, -2.0d0, 2.0d0, &
                  3.0d0, -3.0d0, 2.0d0, 0.0d0, 0.0d0, -4.0d0, 4.0d0, &
                  0.0d0, 0.0d0, 0.0d0, 0.0d0, 0.0d0, 1.75d0, -1.5d0, &
                  0.0d0, 0.0d0, 0.0d0, -1.25d0, 1.0d0, 0.0d0, 0.0d0]
      tf = 3.0d0
      do i = 1, 7
        pl_m(i) = dble(i)
      end do
    case ('arenstorf')
      ar_mup = 1.0d0 - ar_mu
      n = 4
      y0(1:4) = [0.994d0, 0.0d0, 0.0d0, -2.00158510637908252240537862224d0]
      tf = 17.0652165601579625588917206249d0
    case ('brusselator')
      n = 2; y0(1:2) = [1.5d0, 3.0d0]; tf = 20.0d0; hasjac = .true.
    case ('bruss1d')
      n = 2 * nb
      bc = dble((nb + 1)**2) / 50.0d0
      do i = 1, nb
        x = dble(i) / dble(nb + 1)
        y0(2*i - 1) = 1.0d0 + sin(2.0d0 * pi * x)
        y0(2*i) = 3.0d0
      end do
      tf = 10.0d0
    case ('orego')
      n = 3; y0(1:3) = [1.0d0, 2.0d0, 3.0d0]; tf = 360.0d0; ratio = 1.0d-6; hasjac = .true.
    case ('pendulum')
      n = 4; y0(1:4) = [1.0d0, 0.0d0, 0.0d0, 0.0d0]; tf = 100.0d0
    case default
      stop 'unknown problem'
    end select
  end subroutine setup
end module lsoda_problems


! Right-hand side, LSODA calling sequence F(NEQ, T, Y, YDOT).
subroutine fcn(neq, t, y, ydot)
  use lsoda_problems
  implicit none
  integer, intent(in) :: neq(*)
  double precision, intent(in) :: t, y(*)
  double precision, intent(out) :: ydot(*)
  double precision :: a, c, d1, d2, d7, lam, s, u, v, ul, ur, vl, vr, uuv, sx, sy
  double precision :: dx, dy, r2, r3, w
  integer :: i, j
  double precision, parameter :: og_s = 77.27d0, og_w = 0.161d0, og_q = 8.375d-6, gr = 9.81d0

  select case (pid)
  case (1, 2)        ! vdp1, vdp1000
    ydot(1) = y(2)
    ydot(2) = vdp_mu * (1.0d0 - y(1)**2) * y(2) - y(1)
  case (3)           ! robertson
    a = -0.04d0 * y(1) + 1.0d4 * y(2) * y(3)
    c = 3.0d7 * y(2)**2
    ydot(1) = a
    ydot(2) = -a - c
    ydot(3) = c
  case (4)           ! hires
    d7 = 280.0d0 * y(6) * y(8) - 1.81d0 * y(7)
    ydot(1) = -1.71d0 * y(1) + 0.43d0 * y(2) + 8.32d0 * y(3) + 0.0007d0
    ydot(2) = 1.71d0 * y(1) - 8.75d0 * y(2)
    ydot(3) = -10.03d0 * y(3) + 0.43d0 * y(4) + 0.035d0 * y(5)
    ydot(4) = 8.32d0 * y(2) + 1.71d0 * y(3) - 1.12d0 * y(4)
    ydot(5) = -1.745d0 * y(5) + 0.43d0 * y(6) + 0.43d0 * y(7)
    ydot(6) = -280.0d0 * y(6) * y(8) + 0.69d0 * y(4) + 1.71d0 * y(5) - 0.43d0 * y(6) &
              + 0.69d0 * y(7)
    ydot(7) = d7
    ydot(8) = -d7
  case (5)           ! pleiades: same sums as the numpy code (sequential over j, 0 on the diagonal)
    do i = 1, 7
      sx = 0.0d0
      sy = 0.0d0
      do j = 1, 7
        if (j == i) cycle
        dx = y(j) - y(i)
        dy = y(7 + j) - y(7 + i)
        r2 = dx * dx + dy * dy
        r3 = r2 * sqrt(r2)
        w = pl_m(j) / r3
        sx = sx + w * dx
        sy = sy + w * dy
      end do
      ydot(i) = y(14 + i)
      ydot(7 + i) = y(21 + i)
      ydot(14 + i) = sx
      ydot(21 + i) = sy
    end do
  case (6)           ! arenstorf
    d1 = ((y(1) + ar_mu)**2 + y(2)**2)**1.5d0
    d2 = ((y(1) - ar_mup)**2 + y(2)**2)**1.5d0
    ydot(1) = y(3)
    ydot(2) = y(4)
    ydot(3) = y(1) + 2.0d0 * y(4) - ar_mup * (y(1) + ar_mu) / d1 - ar_mu * (y(1) - ar_mup) / d2
    ydot(4) = y(2) - 2.0d0 * y(3) - ar_mup * y(2) / d1 - ar_mu * y(2) / d2
  case (7)           ! brusselator
    u = y(1)
    v = y(2)
    ydot(1) = 1.0d0 + u * u * v - 4.0d0 * u
    ydot(2) = 3.0d0 * u - u * u * v
  case (8)           ! bruss1d, interleaved (u1, v1, u2, v2, ...), u = 1, v = 3 at the ends
    do i = 1, nb
      u = y(2*i - 1)
      v = y(2*i)
      if (i == 1) then
        ul = 1.0d0
        vl = 3.0d0
      else
        ul = y(2*i - 3)
        vl = y(2*i - 2)
      end if
      if (i == nb) then
        ur = 1.0d0
        vr = 3.0d0
      else
        ur = y(2*i + 1)
        vr = y(2*i + 2)
      end if
      uuv = u * u * v
      ydot(2*i - 1) = 1.0d0 + uuv - 4.0d0 * u + bc * (ul - 2.0d0 * u + ur)
      ydot(2*i) = 3.0d0 * u - uuv + bc * (vl - 2.0d0 * v + vr)
    end do
  case (9)           ! orego
    s = og_s
    ydot(1) = s * (y(2) - y(1) * y(2) + y(1) - og_q * y(1)**2)
    ydot(2) = (-y(2) - y(1) * y(2) + y(3)) / s
    ydot(3) = og_w * (y(1) - y(3))
  case (10)          ! pendulum (index-reduced)
    lam = (y(3) * y(3) + y(4) * y(4) - gr * y(2)) / (y(1) * y(1) + y(2) * y(2))
    ydot(1) = y(3)
    ydot(2) = y(4)
    ydot(3) = -lam * y(1)
    ydot(4) = -lam * y(2) - gr
  end select
end subroutine fcn


! Full Jacobian, LSODA calling sequence JAC(NEQ, T, Y, ML, MU, PD, NROWPD).
! LSODA zeroes PD before the call, so only nonzeros are set. PD(i, j) = df_i / dy_j.
subroutine jac(neq, t, y, ml, mu, pd, nrowpd)
  use lsoda_problems
  implicit none
  integer, intent(in) :: neq(*), ml, mu, nrowpd
  double precision, intent(in) :: t, y(*)
  double precision, intent(inout) :: pd(nrowpd, *)
  double precision :: u, v
  double precision, parameter :: og_s = 77.27d0, og_w = 0.161d0, og_q = 8.375d-6

  select case (pid)
  case (1, 2)
    pd(1, 2) = 1.0d0
    pd(2, 1) = -2.0d0 * vdp_mu * y(1) * y(2) - 1.0d0
    pd(2, 2) = vdp_mu * (1.0d0 - y(1)**2)
  case (3)
    pd(1, 1) = -0.04d0
    pd(1, 2) = 1.0d4 * y(3)
    pd(1, 3) = 1.0d4 * y(2)
    pd(2, 1) = 0.04d0
    pd(2, 2) = -1.0d4 * y(3) - 6.0d7 * y(2)
    pd(2, 3) = -1.0d4 * y(2)
    pd(3, 2) = 6.0d7 * y(2)
  case (4)
    pd(1, 1) = -1.71d0; pd(1, 2) = 0.43d0; pd(1, 3) = 8.32d0
    pd(2, 1) = 1.71d0; pd(2, 2) = -8.75d0
    pd(3, 3) = -10.03d0; pd(3, 4) = 0.43d0; pd(3, 5) = 0.035d0
    pd(4, 2) = 8.32d0; pd(4, 3) = 1.71d0; pd(4, 4) = -1.12d0
    pd(5, 5) = -1.745d0; pd(5, 6) = 0.43d0; pd(5, 7) = 0.43d0
    pd(6, 4) = 0.69d0; pd(6, 5) = 1.71d0; pd(6, 6) = -280.0d0 * y(8) - 0.43d0
    pd(6, 7) = 0.69d0; pd(6, 8) = -280.0d0 * y(6)
    pd(7, 6) = 280.0d0 * y(8); pd(7, 7) = -1.81d0; pd(7, 8) = 280.0d0 * y(6)
    pd(8, 6) = -280.0d0 * y(8); pd(8, 7) = 1.81d0; pd(8, 8) = -280.0d0 * y(6)
  case (7)
    u = y(1)
    v = y(2)
    pd(1, 1) = 2.0d0 * u * v - 4.0d0
    pd(1, 2) = u * u
    pd(2, 1) = 3.0d0 - 2.0d0 * u * v
    pd(2, 2) = -u * u
  case (9)
    pd(1, 1) = og_s * (-y(2) + 1.0d0 - 2.0d0 * og_q * y(1))
    pd(1, 2) = og_s * (1.0d0 - y(1))
    pd(2, 1) = -y(2) / og_s
    pd(2, 2) = (-1.0d0 - y(1)) / og_s
    pd(2, 3) = 1.0d0 / og_s
    pd(3, 1) = og_w
    pd(3, 3) = -og_w
  case default
    stop 'jac called for a problem without an analytic Jacobian'
  end select
end subroutine jac
