; Rust. Capture roles: see query-captures.ts. Earlier patterns win.

; ---- declarations -------------------------------------------------------

; An impl block is a container named after the implementing type.
(impl_item type: (_) @scope.name) @scope

(impl_item
  body: (declaration_list (function_item name: (identifier) @name) @definition.method))
(trait_item
  body: (declaration_list
    [
      (function_item name: (identifier) @name) @definition.method
      (function_signature_item name: (identifier) @name) @definition.method
    ]))

(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(macro_definition name: (identifier) @name) @definition.function

(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(mod_item name: (identifier) @name) @definition.module

(struct_item
  body: (field_declaration_list
    (field_declaration name: (field_identifier) @name) @definition.field))
(union_item
  body: (field_declaration_list
    (field_declaration name: (field_identifier) @name) @definition.field))
(enum_variant_list (enum_variant name: (identifier) @name) @definition.constant)

; Items outside function bodies only.
(source_file [(const_item name: (identifier) @name) (static_item name: (identifier) @name)] @definition.constant)
(declaration_list [(const_item name: (identifier) @name) (static_item name: (identifier) @name)] @definition.constant)

; ---- references ---------------------------------------------------------

(identifier) @reference
(type_identifier) @reference
(field_identifier) @reference.member
((type_identifier) @ignore (#eq? @ignore "Self"))
((identifier) @ignore (#eq? @ignore "_"))

; ---- parameters and locals ---------------------------------------------

[
  (function_item)
  (function_signature_item)
  (closure_expression)
  (impl_item)
  (trait_item)
  (struct_item)
  (enum_item)
  (type_item)
] @local.scope

(parameter pattern: (identifier) @local.definition)
(parameter pattern: (mut_pattern (identifier) @local.definition))
(closure_parameters (identifier) @local.definition)
(let_declaration pattern: (identifier) @local.definition)
(let_declaration pattern: (mut_pattern (identifier) @local.definition))
(tuple_pattern (identifier) @local.definition)
(for_expression pattern: (identifier) @local.definition)
(tuple_struct_pattern type: (_) (identifier) @local.definition)
(field_pattern (shorthand_field_identifier) @local.definition)
(field_pattern pattern: (identifier) @local.definition)
(ref_pattern (identifier) @local.definition)
(reference_pattern (identifier) @local.definition)
(let_condition pattern: (identifier) @local.definition)
(type_parameter name: (type_identifier) @local.definition)

; ---- imports ------------------------------------------------------------

(use_declaration argument: (_) @import.path) @import
