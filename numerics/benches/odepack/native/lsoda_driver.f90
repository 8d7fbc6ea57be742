! Native driver for ODEPACK LSODA (Fortran, compiled RHS) on the ten problems of
! integrator-test-problems.md. It mirrors numerics/benches/odepack/lsoda_testset.py, i.e.
! what scipy.integrate.odeint does with the options that script passes:
!
!   itol = 1 (scalar rtol, atol = ratio * rtol), itask = 1, one call with tout = tf,
!   iopt = 1 with h0 = hmax = hmin = 0, ixpr = 0, mxstep = 10**7, mxhnil = 0 (default),
!   mxordn = 12, mxords = 5;
!   jt = 1 (user full Jacobian) where the script passes Dfun, jt = 2 (internal dense finite
!   differences) otherwise. The script never passes ml/mu, so bruss1d is dense jt = 2 too.
!
! The problems (RHS, Jacobian, y0, tf, atol ratio) are in lsoda_problems.f90.
!
! Output: two lines per (rtol, problem), for lsoda_native.py:
!   RAW name rtol atol istate nst nfe nje seconds n y(1) ... y(n)
!   SW name switches
! seconds is the best of --repeat K wall times of the LSODA call over [0, tf] (state reset
! and option setup included, RHS/Jacobian compiled). switches is counted like the script
! does: a second, untimed run with 20001 output times (numpy.linspace(0, tf, 20001)),
! counting changes of IWORK(19) (method last used) between outputs, plus one if the first
! output already reports BDF.
!
! usage: lsoda_f77 [--rtol R] [--problem NAME] [--fd] [--repeat K] [--no-switches]
! (--no-switches skips the switch-count run and prints -1, for timing loops)

program lsoda_testset_native
  use lsoda_problems
  implicit none
  external fcn, jac
  integer, parameter :: nmax = 200
  integer, parameter :: nout = 20001        ! output times of the switch-count run
  integer, parameter :: mxordn = 12, mxords = 5
  double precision :: y0(nmax), y(nmax), tf, ratio, t, tout, rtol(1), atol(1), best, secs
  double precision :: rtols(3), step
  double precision, allocatable :: rwork(:)
  integer, allocatable :: iwork(:)
  integer :: neq(1), n, p, k, r, nrt, irt, repeat, istate, jt, lrw, liw, lmat, nst, nfe, nje
  integer :: nsw, mprev, i, narg
  integer(8) :: c0, c1, crate
  logical :: hasjac, fd, doswitch, banded
  integer :: ml, mu
  character(len=64) :: arg, only

  rtols = [1.0d-4, 1.0d-6, 1.0d-8]
  nrt = 3
  repeat = 1
  fd = .false.
  banded = .false.
  doswitch = .true.
  only = ''
  narg = command_argument_count()
  i = 1
  do while (i <= narg)
    call get_command_argument(i, arg)
    select case (trim(arg))
    case ('--rtol')
      i = i + 1
      call get_command_argument(i, arg)
      read (arg, *) rtols(1)
      nrt = 1
    case ('--problem')
      i = i + 1
      call get_command_argument(i, only)
    case ('--repeat')
      i = i + 1
      call get_command_argument(i, arg)
      read (arg, *) repeat
    case ('--fd')
      fd = .true.
    case ('--banded')
      banded = .true.
    case ('--no-switches')
      doswitch = .false.
    case default
      write (0, *) 'unknown argument ', trim(arg)
      stop 2
    end select
    i = i + 1
  end do

  call system_clock(count_rate=crate)
  do irt = 1, nrt
    do p = 1, nprob
      if (len_trim(only) > 0 .and. trim(only) /= trim(names(p))) cycle
      call setup(p, n, y0, tf, ratio, hasjac)
      if (fd) hasjac = .false.
      jt = 2
      if (hasjac) jt = 1
      ml = 0
      mu = 0
      rtol(1) = rtols(irt)
      atol(1) = ratio * rtols(irt)
      ! work array sizes as scipy's odeint computes them (jt = 1 or 2: full matrix)
      lmat = n * n + 2
      if (banded .and. trim(names(p)) == 'bruss1d') then
        ! --banded: bruss1d with LSODA's internal banded finite differences (jt = 5,
        ! ml = mu = 2), as `ivp_testset --banded` gives ours its banded Jacobian
        jt = 5
        ml = 2
        mu = 2
        lmat = (2 * ml + mu + 1) * n + 2
      end if
      lrw = max(20 + n * (mxordn + 1) + 3 * n, 20 + n * (mxords + 1) + 3 * n + lmat)
      liw = 20 + n
      if (allocated(rwork)) deallocate (rwork, iwork)
      allocate (rwork(lrw), iwork(liw))
      rwork = 0.0d0
      iwork = 0
      neq(1) = n

      best = huge(1.0d0)
      do r = 1, repeat
        call system_clock(c0)
        y(1:n) = y0(1:n)
        t = 0.0d0
        tout = tf
        istate = 1
        call set_options()
        call lsoda(fcn, neq, y, t, tout, 1, rtol, atol, 1, istate, 1, rwork, lrw, iwork, liw, &
                   jac, jt)
        call system_clock(c1)
        secs = dble(c1 - c0) / dble(crate)
        best = min(best, secs)
      end do
      nst = iwork(11)
      nfe = iwork(12)
      nje = iwork(13)
      call emit()
      ! untimed switch-count run, as lsoda_testset.py counts `mused`
      nsw = -1
      if (doswitch) call count_switches()
      write (*, '(a,1x,a,1x,i0)') 'SW', trim(names(p)), nsw
    end do
  end do

contains

  subroutine set_options()
    rwork(5:7) = 0.0d0          ! h0, hmax, hmin
    iwork(1) = ml               ! ml, mu (used for jt = 4, 5 only)
    iwork(2) = mu
    iwork(5) = 0                ! ixpr
    iwork(6) = 10000000         ! mxstep
    iwork(7) = 0                ! mxhnil (0: default 10)
    iwork(8) = mxordn
    iwork(9) = mxords
  end subroutine set_options

  subroutine emit()
    integer :: j
    character(len=32) :: buf
    write (*, '(a,1x,a,2(1x,es24.16e3),4(1x,i0))', advance='no') 'RAW', trim(names(p)), &
         rtol(1), atol(1), istate, nst, nfe, nje
    write (buf, '(es24.16e3)') best
    write (*, '(1x,a,1x,i0)', advance='no') trim(adjustl(buf)), n
    do j = 1, n
      write (buf, '(es24.16e3)') y(j)
      write (*, '(1x,a)', advance='no') trim(adjustl(buf))
    end do
    write (*, '(a)') ''
  end subroutine emit

  subroutine count_switches()
    integer :: kk
    double precision :: ys(nmax)
    ys(1:n) = y0(1:n)
    t = 0.0d0
    istate = 1
    call set_options()
    nsw = 0
    mprev = -1
    step = tf / dble(nout - 1)          ! numpy.linspace: k * step + start, last = stop
    do kk = 1, nout - 1
      tout = dble(kk) * step + 0.0d0
      if (kk == nout - 1) tout = tf
      call lsoda(fcn, neq, ys, t, tout, 1, rtol, atol, 1, istate, 1, rwork, lrw, iwork, liw, &
                 jac, jt)
      if (istate < 0) exit
      if (kk == 1) then
        if (iwork(19) == 2) nsw = nsw + 1
      else if (iwork(19) /= mprev) then
        nsw = nsw + 1
      end if
      mprev = iwork(19)
    end do
  end subroutine count_switches

end program lsoda_testset_native
