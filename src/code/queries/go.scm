; Go. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

(function_declaration name: (identifier) @name) @definition.function

; A method's container is its receiver's type.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name) @definition.method

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

(field_declaration_list
  (field_declaration name: (field_identifier) @name) @definition.field)
(interface_type
  (method_elem name: (field_identifier) @name) @definition.method)

(source_file
  (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(source_file
  (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(source_file
  (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))

; ---- references ---------------------------------------------------------

(identifier) @reference
(type_identifier) @reference
(package_identifier) @reference
(field_identifier) @reference.member

((identifier) @ignore (#eq? @ignore "_"))
(package_clause (package_identifier) @ignore)
((type_identifier) @ignore
  (#any-of? @ignore
    "bool" "byte" "complex64" "complex128" "error" "float32" "float64" "int" "int8" "int16" "int32"
    "int64" "rune" "string" "uint" "uint8" "uint16" "uint32" "uint64" "uintptr" "any" "comparable"))

; ---- parameters and locals ---------------------------------------------

[(function_declaration) (method_declaration) (func_literal)] @local.scope

(parameter_declaration name: (identifier) @local.definition)
(variadic_parameter_declaration name: (identifier) @local.definition)
(short_var_declaration left: (expression_list (identifier) @local.definition))
(var_spec name: (identifier) @local.definition)
(const_spec name: (identifier) @local.definition)
(range_clause left: (expression_list (identifier) @local.definition))
(type_parameter_declaration name: (identifier) @local.definition)

; ---- imports ------------------------------------------------------------

(import_spec) @import
(import_spec path: (_) @import.source)
(import_spec name: (package_identifier) @import.namespace)
