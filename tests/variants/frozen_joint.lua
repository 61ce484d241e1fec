-- Both joint moves open at the start (tests/variants/frozen_joint.yaml).
function rules.setup(g)
  g:set_counter("swap", 3)
end
