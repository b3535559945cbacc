# hopsim run with a fixed-step integrator that diverges (docs/integrators.md, "Divergence"): the
# rotor of examples/rotor_soft_stop.yaml against a stop 50 000 times stiffer than the example's
# is unstable for rk4 at 10 ms inside the contact. The run exits with status 1 at the first step
# past the state bound, naming the state, the time and the integrator, instead of finishing
# with states of 1e292; `--set simulation.state_bound=...` moves the bound.
set(diverging_rotor
  "run|${PROJECT_SOURCE_DIR}/examples/rotor_soft_stop.yaml|--integrator|rk4|--set|models.stop.params.k=1e7|--end|0.8")
set(divergence_message
  "hopsim: error: multibody\\.bodies\\.rotor\\.U\\[0\\] is [-0-9.e+]+ at t = 0\\.[0-9]+ s after the rk4 step from t = 0\\.[0-9]+ s, beyond the state bound")
add_test(NAME "apps: hopsim run stops a diverging rk4 run at the state and time it diverges"
  COMMAND ${CMAKE_COMMAND} -DHOPSIM=$<TARGET_FILE:hopsim> "-DARGS=${diverging_rotor}"
    "-DMATCH=${divergence_message} 1e\\+15: the fixed-step integration diverges; use a smaller step \\(more integration_steps, or a smaller time_step\\) or cvode"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/check_run_fails.cmake)
add_test(NAME "apps: hopsim run --set simulation.state_bound moves the bound of the divergence check"
  COMMAND ${CMAKE_COMMAND} -DHOPSIM=$<TARGET_FILE:hopsim>
    "-DARGS=${diverging_rotor}|--set|simulation.state_bound=1e100"
    "-DMATCH=${divergence_message} 1e\\+100"
    -P ${CMAKE_CURRENT_SOURCE_DIR}/check_run_fails.cmake)
