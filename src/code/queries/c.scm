; C, and the part of C++ that shares C's syntax (cpp.scm comes first for C++).
; Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

(function_definition
  declarator: [
    (function_declarator declarator: (_) @name)
    (pointer_declarator declarator: (function_declarator declarator: (_) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name)))
  ]) @definition.function

; Prototypes at file level.
(translation_unit
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    ]) @definition.function)

(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition
  type: [(struct_specifier !name body: (_)) (union_specifier !name body: (_))]
  declarator: (type_identifier) @name) @definition.struct
(type_definition
  type: (enum_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name)) @definition.type

(field_declaration_list
  (field_declaration
    declarator: [
      (field_identifier) @name
      (pointer_declarator declarator: (field_identifier) @name)
      (array_declarator declarator: (field_identifier) @name)
    ]) @definition.field)
(enumerator name: (identifier) @name) @definition.constant

(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function

; File-level variables; const ones are constants.
(translation_unit
  (declaration
    (type_qualifier) @_const
    declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (init_declarator declarator: (array_declarator declarator: (identifier) @name))
    ]) @definition.constant
  (#any-of? @_const "const" "constexpr"))
(translation_unit
  (declaration
    declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (array_declarator declarator: (identifier) @name)
      (init_declarator declarator: (identifier) @name)
      (init_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (init_declarator declarator: (array_declarator declarator: (identifier) @name))
    ]) @definition.variable)

; ---- references ---------------------------------------------------------

(identifier) @reference
(type_identifier) @reference
(field_identifier) @reference.member

; ---- parameters and locals ---------------------------------------------

[(function_definition) (preproc_function_def)] @local.scope

(parameter_declaration declarator: (identifier) @local.definition)
(parameter_declaration declarator: (pointer_declarator declarator: (identifier) @local.definition))
(parameter_declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @local.definition)))
(parameter_declaration declarator: (array_declarator declarator: (identifier) @local.definition))
(declaration declarator: (identifier) @local.definition)
(init_declarator declarator: (identifier) @local.definition)
(init_declarator declarator: (pointer_declarator declarator: (identifier) @local.definition))
(init_declarator declarator: (array_declarator declarator: (identifier) @local.definition))
(declaration declarator: (pointer_declarator declarator: (identifier) @local.definition))
(declaration declarator: (array_declarator declarator: (identifier) @local.definition))
(preproc_params (identifier) @local.definition)

; ---- imports ------------------------------------------------------------

(preproc_include path: (_) @import.source) @import
