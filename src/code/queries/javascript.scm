; JavaScript additions to ecmascript.scm.

(class_body
  (field_definition
    property: [(property_identifier) (private_property_identifier)] @name) @definition.property)

(formal_parameters (identifier) @local.definition)
(formal_parameters (assignment_pattern left: (identifier) @local.definition))
