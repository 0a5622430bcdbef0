"""An evening, from its pages down to what they show: the table screen and the evening's
pages (``pages``), recording and correcting hands (``hands``), the settlement page
(``settlement``), the printouts and downloads (``exports``, the score sheet as paper in
``sheet_facts``, ``score_sheet``, ``sheet_end``, ``pairwise_table``), the JSON API
(``api``) and each game's hand form (``hand_forms``)."""
